/** A multipart form as a browser sends it: text fields, then the file (if any) as `file`. */
export function multipartForm(
  fields: Record<string, string>,
  file?: { name: string; content: string | Buffer; type?: string },
): { payload: Buffer; contentType: string } {
  const boundary = '----assay-test-boundary-7MA4YWxkTrZu0gW';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  const f = file ?? { name: '', content: '', type: 'application/octet-stream' };
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'text/csv'}\r\n\r\n`,
    ),
    Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
