import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import { cliDialects, freshCliDatabase, type Outcome } from '../helpers/cli-process.js';

describe.each(cliDialects)('assay webhooks (%s)', (dialect) => {
  let dataDir: string;
  let url: string | undefined;
  let drop: () => Promise<void>;
  const where = () => ['--data', dataDir, ...(url ? ['--database-url', url] : [])];
  const assay = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> =>
    runAssay([...args, ...where()], env);
  const ok = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const result = await assay(args, env);
    expect([result.code, result.stderr], args.join(' ')).toEqual([0, '']);
    return result.stdout;
  };

  beforeAll(async () => {
    ({ dataDir, url, drop } = await freshCliDatabase(dialect));
    await ok(['setup', '--no-keys']);
  });
  afterAll(async () => {
    await drop?.();
  });

  it('creates, lists, shows, updates, rotates, tests, lists deliveries and deletes', async () => {
    const allow = { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' };
    const made = JSON.parse(
      await ok(
        [
          'webhooks',
          'create',
          '--url',
          'http://127.0.0.1:9/hooks',
          '--events',
          'report.created,member.deleted',
          '--owner',
          'admin@localhost',
          '--json',
        ],
        allow,
      ),
    );
    expect(made.secret).toMatch(/^whsec_/);
    expect(made.events).toEqual(['report.created', 'member.deleted']);
    const id = made.webhookid as string;
    const list = await ok(['webhooks', 'list']);
    expect(list).toContain(`${id}  enabled  http://127.0.0.1:9/hooks`);
    expect(list).not.toContain(made.secret);
    expect(JSON.parse(await ok(['webhooks', 'show', id, '--json'])).secret).toBeUndefined();
    const updated = await ok(['webhooks', 'update', id, '--events', 'campaign.ended', '--enabled', 'false']);
    expect(updated).toContain(`${id}  disabled`);
    expect(updated).toContain('events: campaign.ended');
    expect((await assay(['webhooks', 'test', id])).stderr).toMatch(/disabled; enable it first/);
    await ok(['webhooks', 'update', id, '--enabled', 'true']);
    const rotated = await ok(['webhooks', 'rotate', id]);
    expect(rotated).toMatch(/new secret: whsec_/);
    expect(await ok(['webhooks', 'test', id])).toMatch(/^queued msg_[0-9A-Za-z]{10}/);
    expect(await ok(['webhooks', 'deliveries', id])).toBe('no deliveries yet\n');
    expect(await ok(['webhooks', 'delete', id])).toBe(`webhook ${id} deleted\n`);
    expect(await ok(['webhooks', 'list'])).toBe('no webhook subscriptions\n');
  });

  it('refuses bad input with one line and changes nothing', async () => {
    const refused = async (args: string[], code: number, message: RegExp, env: NodeJS.ProcessEnv = {}) => {
      const result = await assay(args, env);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    };
    await refused(['webhooks', 'create', '--events', 'report.created'], 2, /--url is required/);
    await refused(['webhooks', 'create', '--url', 'https://127.0.0.1/'], 2, /--events is required/);
    await refused(
      ['webhooks', 'create', '--url', 'https://127.0.0.1/', '--events', 'report.created'],
      1,
      /loopback, private or link-local/,
    );
    await refused(
      ['webhooks', 'create', '--url', 'https://example.com/', '--events', 'report.made'],
      1,
      /unknown event report\.made/,
    );
    await refused(
      [
        'webhooks',
        'create',
        '--url',
        'https://example.com/',
        '--events',
        'report.created',
        '--owner',
        'x@y.z',
      ],
      1,
      /owner: no user x@y\.z/,
    );
    await refused(['webhooks', 'show', 'AAAAAAAAAA'], 1, /webhook not found/);
    await refused(['webhooks', 'update', 'AAAAAAAAAA'], 2, /needs at least one of/);
    await refused(
      ['webhooks', 'update', 'AAAAAAAAAA', '--enabled', 'maybe'],
      2,
      /--enabled must be true or false/,
    );
    await refused(['webhooks', 'deliveries', 'AAAAAAAAAA', '--limit', 'x'], 2, /--limit must be/);
    await refused(['webhooks', 'rotate'], 2, /needs the subscription id/);
    expect(await ok(['webhooks', 'list'])).toBe('no webhook subscriptions\n');
  });
});
