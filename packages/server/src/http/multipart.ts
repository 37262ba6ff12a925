/**
 * A small reader of `multipart/form-data` bodies (RFC 7578), for the console's file upload: the
 * text fields as strings, the files as their bytes. There is no streaming: the body is read whole
 * first (`readBody`, with its limit), which suits one CSV file of at most the import's limit.
 */

/** A file of a multipart form: the name the browser gave it and its bytes. */
export interface FormFile {
  readonly filename: string;
  readonly contentType: string | undefined;
  readonly bytes: Buffer;
}

/** A multipart form's fields (the last value of a name wins) and its files, by field name. */
export interface MultipartForm {
  readonly fields: Record<string, string>;
  readonly files: Record<string, FormFile>;
}

/** The boundary a `multipart/form-data` Content-Type names, or undefined for any other. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** One parameter of a Content-Disposition header (`name="csv"`), unquoted. */
function parameter(header: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header);
  if (match) return (match[1] as string).replace(/\\(.)/g, '$1');
  return new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i').exec(header)?.[1];
}

/** Reads a multipart body; throws an Error when it is not one (no closing boundary, a part without a name). */
export function parseMultipart(body: Buffer, boundary: string): MultipartForm {
  const fields: Record<string, string> = Object.create(null);
  const files: Record<string, FormFile> = Object.create(null);
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('no boundary');
  for (;;) {
    at += delimiter.length;
    // `--` after a delimiter ends the body.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break;
    if (body[at] === 0x0d && body[at + 1] === 0x0a) at += 2;
    else throw new Error('malformed boundary line');
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) throw new Error('a part without headers');
    const headers = body.toString('utf8', at, headerEnd).split('\r\n');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new Error('no closing boundary');
    const content = body.subarray(headerEnd + 4, next);
    const disposition = headers.find((line) => /^content-disposition:/i.test(line)) ?? '';
    const type = headers.find((line) => /^content-type:/i.test(line))?.replace(/^content-type:\s*/i, '');
    const name = parameter(disposition, 'name');
    if (name === undefined) throw new Error('a part without a name');
    const filename = parameter(disposition, 'filename');
    if (filename !== undefined) files[name] = { filename, contentType: type, bytes: content };
    else fields[name] = content.toString('utf8');
    at = next + 2;
  }
  return { fields, files };
}
