import { describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart } from '../../src/http/multipart.js';

const CRLF = '\r\n';

describe('multipart/form-data reader', () => {
  it('finds the boundary, quoted or not, of multipart/form-data only', () => {
    expect(boundaryOf('multipart/form-data; boundary=----abc')).toBe('----abc');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(boundaryOf('multipart/mixed; boundary=abc')).toBeUndefined();
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
    expect(boundaryOf(undefined)).toBeUndefined();
  });

  it('reads text fields and a file with its name, keeping the file’s bytes as sent', () => {
    const file = Buffer.from([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x0d, 0x0a, 0xff, 0x00]);
    const body = Buffer.concat([
      Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="csrf"${CRLF}${CRLF}token${CRLF}`),
      Buffer.from(
        `--b${CRLF}Content-Disposition: form-data; name="pasted"${CRLF}${CRLF}a,b${CRLF}c,d${CRLF}`,
      ),
      Buffer.from(
        `--b${CRLF}Content-Disposition: form-data; name="file"; filename="leden \\"2026\\" ü.csv"${CRLF}Content-Type: text/csv${CRLF}${CRLF}`,
      ),
      file,
      Buffer.from(`${CRLF}--b--${CRLF}`),
    ]);
    const form = parseMultipart(body, 'b');
    expect(form.fields.csrf).toBe('token');
    expect(form.fields.pasted).toBe(`a,b${CRLF}c,d`);
    expect(form.files.file?.filename).toBe('leden "2026" ü.csv');
    expect(form.files.file?.contentType).toBe('text/csv');
    expect(form.files.file?.bytes.equals(file)).toBe(true);
    // No field name reaches Object.prototype.
    expect(Object.getPrototypeOf(form.fields)).toBeNull();
  });

  it('refuses a body that is not a whole form', () => {
    expect(() => parseMultipart(Buffer.from('no boundary here'), 'b')).toThrow();
    expect(() =>
      parseMultipart(
        Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="x"${CRLF}${CRLF}open`),
        'b',
      ),
    ).toThrow('no closing boundary');
    expect(() =>
      parseMultipart(Buffer.from(`--b${CRLF}Content-Type: text/plain${CRLF}${CRLF}x${CRLF}--b--`), 'b'),
    ).toThrow('a part without a name');
  });
});
