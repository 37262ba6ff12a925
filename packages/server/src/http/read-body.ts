import { errorCodes } from 'fastify';

/** The largest body the import takes (64 MiB). */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * An import body's bytes, read into one buffer of its Content-Length as they arrive (Fastify's own
 * reading keeps every chunk and then copies them all into one more buffer: twice the body). The
 * same refusals as Fastify's: over the limit (413; the members import's unless `limit` says), or a length other than the one announced.
 */
export function readBody(
  payload: NodeJS.ReadableStream,
  contentLength: string | undefined,
  limit = IMPORT_BODY_LIMIT,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const announced = Number(contentLength);
    if (announced > limit) return reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    const known = Number.isInteger(announced) && announced >= 0;
    let bytes = Buffer.allocUnsafe(known ? announced : 64 * 1024);
    let received = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    const onData = (chunk: Buffer | string) => {
      const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (received + data.length > limit) {
        stop();
        return reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      }
      if (received + data.length > bytes.length) {
        if (known) {
          stop();
          return reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        }
        const larger = Buffer.allocUnsafe(
          Math.min(limit, Math.max(bytes.length * 2, received + data.length)),
        );
        bytes.copy(larger, 0, 0, received);
        bytes = larger;
      }
      data.copy(bytes, received);
      received += data.length;
    };
    const onEnd = (error?: Error & { statusCode?: number }) => {
      stop();
      if (error) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        return reject(error);
      }
      if (known && received !== announced) return reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      resolve(received === bytes.length ? bytes : bytes.subarray(0, received));
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}
