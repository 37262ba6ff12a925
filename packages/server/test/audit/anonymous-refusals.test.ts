import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_REFUSALS_RECORDED, AnonymousRefusals } from '../../src/audit/anonymous-refusals.js';
import { listAuditRows } from '../../src/audit/audit.repository.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// Refused API writes of callers without recognised credentials leave at most
// ANONYMOUS_REFUSALS_RECORDED audit entries per address a minute (audit/anonymous-refusals.ts); the
// rest are counted and said in the log once the minute is over. A flood of anonymous POSTs writes
// a bounded number of rows, and meets the guessing limit (429) on the way.

const NOT_RECORDED = /^refused writes without credentials from one address: \d+ more than the 10 recorded/;

function logLines() {
  const lines: (Record<string, unknown> & { msg: string })[] = [];
  return {
    lines,
    stream: {
      write(chunk: string) {
        for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      },
    },
    log: { warn: (fields: object, msg?: string) => lines.push({ msg: String(msg), ...fields }) },
    notRecorded: () => lines.filter((line) => NOT_RECORDED.test(line.msg)),
  };
}

describe('which anonymous refusals are recorded', () => {
  const t0 = new Date('2026-12-01T09:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('records the first ones of each address in its window, and says how many more when the window is over', () => {
    const logged = logLines();
    const refusals = new AnonymousRefusals(logged.log, { recorded: 3, windowMs: 60_000 });
    const a = Array.from({ length: 5 }, (_, i) => refusals.admit('10.0.0.1', at(i * 1000)));
    expect(a).toEqual([true, true, true, false, false]);
    // Each address has its own window, from its own first refusal.
    expect(refusals.admit('10.0.0.2', at(30_000))).toBe(true);
    expect(logged.lines).toEqual([]);
    // A's window is over (B's is not): its count is said, and it starts again.
    expect(refusals.admit('10.0.0.1', at(60_000))).toBe(true);
    expect(logged.lines).toEqual([
      expect.objectContaining({
        address: '10.0.0.1',
        recorded: 3,
        notRecorded: 2,
        since: '2026-12-01T09:00:00+00:00',
      }),
    ]);
    expect(refusals.admit('10.0.0.2', at(61_000))).toBe(true);
    for (let i = 0; i < 4; i++) refusals.admit('10.0.0.2', at(62_000));
    // Closing says what the open windows did not record; a window that recorded all says nothing.
    refusals.close();
    expect(logged.lines.slice(1)).toEqual([
      expect.objectContaining({ address: '10.0.0.2', recorded: 3, notRecorded: 3 }),
    ]);
  });
});

/** How long a wait for an event may last before the test fails: a bound for a stuck test, not a measure. */
const EVENT = { timeout: 60_000 };
/** ASSAY_TOKEN_FAILURES_PER_MINUTE for this instance. */
const LIMIT = 5;
/** The anonymous refused writes of the flood, from one address. */
const FLOOD = 60;

describe.each(dialects)('a flood of refused writes without credentials (%s)', (dialect) => {
  let instance: Instance;
  const logged = logLines();
  // The instance's clock, moved only by the test: the flood is in one minute by construction.
  let now = new Date('2026-12-01T09:00:00Z');

  beforeAll(async () => {
    instance = await startInstance(dialect, {
      clock: () => now,
      env: { LOG_LEVEL: 'warn', ASSAY_TOKEN_FAILURES_PER_MINUTE: String(LIMIT) },
      logStream: logged.stream,
    });
  });
  afterAll(() => instance?.close());

  const post = (ip: string) =>
    instance.inject({
      method: 'POST',
      url: '/api/v1/members',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: email('flood'), firstname: 'Flo', lastname: 'Od' }),
    });
  /** The entries of refusals from `ip`, oldest first. */
  const entriesOf = async (ip: string) =>
    (await listAuditRows(instance.db.kysely, { limit: 10_000 }))
      .filter((row) => row.address === ip)
      .reverse();
  /**
   * A refusal of a known client, recorded after everything before it (entries are written in the
   * order they came): once its entry is in, so is every entry of the flood that is to be written.
   */
  async function recordedSoFar(): Promise<void> {
    const token = await instance.token('groups');
    const id = `SENTINEL${Math.floor(Math.random() * 1e9)}`;
    const refused = await instance.call('DELETE', `/members/${id}`, { auth: `Bearer ${token}` });
    expect(refused.statusCode).toBe(403);
    await expect
      .poll(
        async () =>
          (await listAuditRows(instance.db.kysely, { limit: 10_000 })).some((row) => row.resource_id === id),
        EVENT,
      )
      .toBe(true);
  }

  it('writes at most the bound of rows per address and minute, the limit answering 429 past its count', async () => {
    const ip = '10.55.0.1';
    const statuses: number[] = [];
    for (let i = 0; i < FLOOD; i++) {
      const answer = await post(ip);
      statuses.push(answer.statusCode);
      if (answer.statusCode === 429) expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // The 429s come from the guessing limit: a request without credentials counts as a wrong one.
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(FLOOD - LIMIT).fill(429)]);
    // Another address in the same minute has a bound of its own.
    const other = '10.55.0.2';
    for (let i = 0; i < ANONYMOUS_REFUSALS_RECORDED + 2; i++) await post(other);
    await recordedSoFar();

    const rows = await entriesOf(ip);
    expect(rows).toHaveLength(ANONYMOUS_REFUSALS_RECORDED);
    expect(rows.map((row) => [row.actor_type, row.resource_type, row.action, row.outcome])).toEqual([
      ...Array(LIMIT).fill(['anonymous', 'member', 'post', 'denied']),
      ...Array(ANONYMOUS_REFUSALS_RECORDED - LIMIT).fill(['anonymous', 'member', 'post', 'failed']),
    ]);
    expect(await entriesOf(other)).toHaveLength(ANONYMOUS_REFUSALS_RECORDED);
    // The minute is not over: nothing said yet.
    expect(logged.notRecorded()).toEqual([]);

    // A minute on, the address is recorded again, and the log says how many were only counted.
    now = new Date(now.getTime() + 60_000);
    expect((await post(ip)).statusCode).toBe(401);
    await recordedSoFar();
    expect(await entriesOf(ip)).toHaveLength(ANONYMOUS_REFUSALS_RECORDED + 1);
    expect(logged.notRecorded()).toEqual([
      expect.objectContaining({
        level: 40,
        address: ip,
        recorded: ANONYMOUS_REFUSALS_RECORDED,
        notRecorded: FLOOD - ANONYMOUS_REFUSALS_RECORDED,
        since: '2026-12-01T09:00:00+00:00',
      }),
      expect.objectContaining({ address: other, recorded: ANONYMOUS_REFUSALS_RECORDED, notRecorded: 2 }),
    ]);
  });

  it('records every refusal of a known caller, however many', async () => {
    const token = await instance.token('groups');
    const ip = '10.55.0.3';
    for (let i = 0; i < ANONYMOUS_REFUSALS_RECORDED + 5; i++) {
      const refused = await instance.inject({
        method: 'DELETE',
        url: `/api/v1/members/KNOWN${i}`,
        remoteAddress: ip,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(refused.statusCode).toBe(403);
    }
    await recordedSoFar();
    const rows = await entriesOf(ip);
    expect(rows.map((row) => row.resource_id)).toEqual(
      Array.from({ length: ANONYMOUS_REFUSALS_RECORDED + 5 }, (_, i) => `KNOWN${i}`),
    );
    expect(rows.every((row) => row.actor_type === 'client' && row.outcome === 'denied')).toBe(true);
  });
});
