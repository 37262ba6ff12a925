import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * A `fetch` that answers from the app itself (`app.inject`), without a socket: the typed client of
 * the MCP tools calls the API of the very instance that serves them, whatever its public address
 * (which a server behind a proxy may not reach). `remoteAddress` is the MCP caller's, so the API's
 * guessing limits count against them.
 */
export function inProcessFetch(app: FastifyInstance, remoteAddress: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await app.inject({
      method: (init?.method ?? 'GET') as InjectOptions['method'],
      url: url.pathname + url.search,
      headers,
      ...(init?.body === undefined || init.body === null ? {} : { payload: init.body as string }),
      remoteAddress,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of [value].flat()) responseHeaders.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  };
}
