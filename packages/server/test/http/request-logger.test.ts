import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from '../../src/http/request-logger.js';

function logged(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const root = pino({ level }, stream) as unknown as FastifyBaseLogger;
  const lazy = lazyChildLogger.call(
    undefined as unknown as FastifyInstance,
    root,
    { reqId: 'req-7' },
    {},
    undefined as never,
  );
  return { lines, lazy };
}

describe('the lazy request logger', () => {
  it("logs with the request's id, as a pino child would", () => {
    const { lines, lazy } = logged();
    lazy.info('hello');
    lazy.error({ err: new Error('boom') }, 'request failed');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: 'req-7', msg: 'hello', level: 30 });
    expect(lines[1]).toMatchObject({
      reqId: 'req-7',
      msg: 'request failed',
      level: 50,
      err: { message: 'boom' },
    });
  });

  it('keeps the levels of its parent and lets them be changed', () => {
    const { lines, lazy } = logged('warn');
    expect(lazy.level).toBe('warn');
    lazy.info('not shown');
    lazy.debug('not shown');
    expect(lines).toHaveLength(0);
    lazy.level = 'debug';
    lazy.debug('shown');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'req-7', msg: 'shown' })]);
  });

  it('makes children that carry the request id too', () => {
    const { lines, lazy } = logged();
    lazy.child({ part: 'auth' }).warn('careful');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'req-7', part: 'auth', msg: 'careful' })]);
  });
});
