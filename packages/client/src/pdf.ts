/** A PDF answered by the API (a report, a sample), as a stream. */
export interface PdfFile {
  /** The PDF's bytes as a web stream; read it once (in Node: `Readable.fromWeb(file.body)`). */
  body: ReadableStream<Uint8Array>;
  /** `application/pdf`. */
  contentType: string;
  /** The file name the server suggests (`Content-Disposition`), e.g. `bigfive-Garcia-Ana-AbCdEf1234.pdf`. */
  filename: string | undefined;
  /** The size in bytes when the server said it (`Content-Length`). */
  size: number | undefined;
}

/** The file name of a `Content-Disposition` header: `filename*=UTF-8''…` first, then `filename="…"`. */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // Not valid percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain?.[1] ?? plain?.[2];
  return name === undefined ? undefined : name.replace(/\\(.)/g, '$1').trim();
}

export function pdfFile(response: Response): PdfFile {
  const length = response.headers.get('content-length');
  const size = length === null ? undefined : Number(length);
  return {
    body: response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
    contentType: response.headers.get('content-type') ?? 'application/pdf',
    filename: dispositionFilename(response.headers.get('content-disposition')),
    size: size !== undefined && Number.isFinite(size) ? size : undefined,
  };
}
