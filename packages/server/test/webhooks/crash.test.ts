import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, MAIN, until } from '../helpers/cli-process.js';
import { dialects, freshDatabase } from '../helpers/instance.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// A server process killed (SIGKILL) after the changes committed and before their events were all
// delivered: after a restart every event arrives, signed, and only those that were on the wire
// when the process died may arrive twice (with the same webhook-id, for the receiver to drop).

const run = promisify(execFile);
const EVENTS = 150;
// The engines' cases run at once (describe.concurrent): each has its own database, receiver and
// port, and a case is mostly waiting on its server processes.

for (const dialect of dialects) {
  describe.concurrent(`a server killed before its webhooks are delivered (${dialect})`, () => {
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    let receiver: WebhookReceiver;
    const children: ChildProcess[] = [];
    const where = () => (fresh.url ? ['--database-url', fresh.url] : ['--data', fresh.dataDir]);

    beforeAll(async () => {
      fresh = await freshDatabase(dialect);
      await fresh.db.close();
      receiver = await startWebhookReceiver();
      // Slow answers, so that the kill lands with messages on the wire.
      receiver.delayMs = 100;
    });
    afterAll(async () => {
      for (const child of children) child.kill('SIGKILL');
      await receiver.close();
      await fresh.drop();
    });

    async function serve(port: number) {
      const child = spawn(
        process.execPath,
        [MAIN, 'serve', ...where(), '--port', String(port), '--host', '127.0.0.1'],
        {
          env: {
            ...process.env,
            LOG_LEVEL: 'warn',
            ASSAY_MAIL_LEASE_SECONDS: '2',
            ASSAY_TICK_SECONDS: '1',
            ASSAY_WEBHOOK_ALLOW_PRIVATE: '1',
          },
        },
      );
      children.push(child);
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk) => {
          output += chunk;
          if (output.includes('Assay is serving')) resolve();
        });
        child.on('exit', () => reject(new Error(`serve exited: ${output}`)));
      });
      return child;
    }

    it('delivers every event after a restart', async () => {
      const env = { ...process.env, LOG_LEVEL: 'warn' };
      await run(process.execPath, [MAIN, 'setup', ...where()], { env });
      const scopes = 'members campaigns webhooks';
      const client = JSON.parse(
        (
          await run(
            process.execPath,
            [MAIN, 'clients', 'create', '--name', 'crash', '--scopes', scopes, '--json', ...where()],
            { env },
          )
        ).stdout,
      );
      const port = await freePort();
      const base = `http://127.0.0.1:${port}/api/v1`;
      const first = await serve(port);
      const tokenResponse = await fetch(`${base}/auth/access_token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
          scope: scopes,
        }),
      });
      const token = ((await tokenResponse.json()) as { data: { access_token: string } }).data.access_token;
      const api = async (method: string, url: string, body?: unknown) => {
        const response = await fetch(`${base}${url}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        // biome-ignore lint/suspicious/noExplicitAny: the test reads answers loosely and asserts their shape.
        return (await response.json()) as { status: string; data: any };
      };
      const hook = await api('POST', '/webhooks', { url: receiver.url, events: ['campaignmember.invited'] });
      expect(hook.status).toBe('OK');
      receiver.secrets.push(hook.data.secret);
      const members = Array.from({ length: EVENTS }, (_, i) => ({
        email: `hook${i}@example.test`,
        firstname: `H${i}`,
        lastname: 'Ook',
      }));
      const ids = (await api('POST', '/members/import', { members })).data.created as string[];
      const campaign = (
        await api('POST', '/campaigns', { name: 'Crash', variant: 'teamscan', start: '2026-01-01' })
      ).data;
      expect(
        (await api('POST', `/campaigns/${campaign.campaignid}/members`, { memberids: ids })).data.added,
      ).toHaveLength(EVENTS);
      expect(await api('POST', `/campaigns/${campaign.campaignid}/members/invite`)).toEqual({
        status: 'OK',
        data: '',
      });
      await until(() => receiver.received.length >= 1, 20_000, 'the first deliveries');
      first.kill('SIGKILL');
      await new Promise((resolve) => first.on('exit', resolve));
      expect(new Set(receiver.received.map((got) => got.id)).size).toBeLessThan(EVENTS);

      const second = await serve(port);
      await until(
        () => new Set(receiver.received.map((got) => got.id)).size === EVENTS,
        60_000,
        'every event after the restart',
      );
      const stopped = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await stopped;
      const counts = new Map<string, number>();
      for (const got of receiver.received) counts.set(got.id, (counts.get(got.id) ?? 0) + 1);
      expect(counts.size).toBe(EVENTS);
      // Only messages the dead process had on the wire came twice: at most one batch.
      expect([...counts.values()].every((count) => count <= 2)).toBe(true);
      expect([...counts.values()].filter((count) => count === 2).length).toBeLessThanOrEqual(100);
      expect(receiver.received.every((got) => got.verifiedBy.length === 1)).toBe(true);
      const invited = new Set(receiver.received.map((got) => got.event?.data.memberid));
      expect(invited).toEqual(new Set(ids));
    }, 120_000);
  });
}
