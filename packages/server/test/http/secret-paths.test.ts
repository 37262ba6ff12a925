import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/cli/commands.js';
import { createSignInLink } from '../../src/console/sessions.service.js';
import { checkSecretRoute, SECRET_PATHS, withoutSecrets } from '../../src/http/secret-paths.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// The paths that carry a secret show it in no log line: one list (http/secret-paths.ts) for every
// place that writes a URL down.

describe('a URL as the logs show it', () => {
  const secret = randomBytes(32).toString('base64url');

  it('hides the segment after each secret-bearing path, whatever it holds', () => {
    expect(withoutSecrets(`/q/${secret}/page/2?return=check`)).toBe('/q/[token]/page/2?return=check');
    expect(withoutSecrets(`/survey/r/${secret}`)).toBe('/survey/r/[token]');
    expect(withoutSecrets(`/console/sign-in/link/${secret}`)).toBe('/console/sign-in/link/[secret]');
    expect(withoutSecrets(`/console/invitation/${secret}?x=1`)).toBe('/console/invitation/[secret]?x=1');
    // A guess of another shape, or a path in other case (a 404), is no more shown.
    expect(withoutSecrets('/console/invitation/short.guess')).toBe('/console/invitation/[secret]');
    expect(withoutSecrets(`/Console/Sign-In/Link/${secret}`)).toBe('/Console/Sign-In/Link/[secret]');
    expect(withoutSecrets('/q/abc')).toBe('/q/[token]');
    // Everything else as it came.
    for (const url of ['/api/v1/members', '/console/sign-in?next=%2Fconsole', '/console/invitation/']) {
      expect(withoutSecrets(url)).toBe(url);
    }
    expect(SECRET_PATHS.map((path) => path.before)).toEqual([
      '/q/',
      '/r/',
      '/console/sign-in/link/',
      '/console/invitation/',
    ]);
  });

  it('stops start-up for a route with a secret parameter outside the list', () => {
    expect(() => checkSecretRoute({ method: 'GET', url: '/console/reset/:secret' })).toThrow(
      'GET /console/reset/:secret carries a secret in its path that the logs would show',
    );
    expect(() => checkSecretRoute({ method: ['GET', 'HEAD'], url: '/x/:token/page' })).toThrow(
      /SECRET_PATHS/,
    );
    expect(() => checkSecretRoute({ method: 'GET', url: '/console/invitation/:secret' })).not.toThrow();
    expect(() => checkSecretRoute({ method: 'POST', url: '/survey/q/:token/raters' })).not.toThrow();
    expect(() => checkSecretRoute({ method: 'GET', url: '/s/:alias' })).not.toThrow();
  });
});

const ADMIN = 'admin@example.test';
/** The sign-in pages' guessing limit for this instance: a few wrong links reach it. */
const LIMIT = 3;

/**
 * Real requests to each secret-bearing path, answered 200/303, 400, 404 and 429, with the access
 * log on (`trace`, every line the server writes): not one line holds a secret.
 */
describe.each(dialects)('the logs of requests to secret-bearing paths (%s)', (dialect) => {
  let instance: Instance;
  const output: string[] = [];
  // The limiter's window on a clock that stands still: the guesses below are in one window.
  const now = new Date();

  beforeAll(async () => {
    instance = await startInstance(dialect, {
      clock: () => now,
      env: { LOG_LEVEL: 'trace', ASSAY_TOKEN_FAILURES_PER_MINUTE: String(LIMIT) },
      logStream: { write: (line) => output.push(line) },
    });
    await setPassword(instance.db.kysely, ADMIN, 'correct horse battery');
  });
  afterAll(() => instance?.close());

  /** A participation token of a member of a fresh campaign. */
  async function participationToken(): Promise<string> {
    const campaign = await instance.call('POST', '/campaigns', {
      body: { name: 'Logs', variant: 'teamscan', start: '2026-01-01T09:00:00+00:00', autoinvite: 'none' },
    });
    const campaignid = campaign.json.data.campaignid as string;
    const member = await instance.call('POST', '/members', {
      body: { email: email('log'), firstname: 'Lo', lastname: 'Gs' },
    });
    const memberid = member.json.data.memberid as string;
    expect((await instance.call('POST', `/campaigns/${campaignid}/members/${memberid}`)).statusCode).toBe(
      200,
    );
    const row = await instance.db.kysely
      .selectFrom('campaign_members')
      .select('token')
      .where('campaign_id', '=', campaignid)
      .executeTakeFirstOrThrow();
    return row.token;
  }

  /** The secret of an invitation an admin sent through the console. */
  async function invitationSecret(admin: ConsoleBrowser): Promise<string> {
    const address = email('invitee');
    await admin.get('/console/access/users');
    const invited = await admin.post('/console/access/users/invite', {
      email: address,
      firstname: 'In',
      lastname: 'Vitee',
      language: 'enUS',
    });
    expect(invited.statusCode).toBe(303);
    const mail = await instance.db.kysely
      .selectFrom('mail_outbox')
      .select('params')
      .where('recipient', '=', address)
      .executeTakeFirstOrThrow();
    return new URL(String(JSON.parse(mail.params).link)).pathname.split('/').at(-1) as string;
  }

  it('never shows a token, a sign-in link or an invitation secret, whatever the answer', async () => {
    const admin = await new ConsoleBrowser(instance, '10.40.0.1').signIn();
    const user = await instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    const token = await participationToken();
    const signInLink = await createSignInLink(instance.db.kysely, user.id, now);
    const invitation = await invitationSecret(admin);
    const madeUp = Array.from({ length: LIMIT + 2 }, () => randomBytes(32).toString('base64url'));
    const secrets = [token, signInLink, invitation, ...madeUp];
    output.length = 0;

    const statuses: Record<string, number[]> = {};
    const seen = (name: string, status: number) => {
      statuses[name] = [...(statuses[name] ?? []), status];
    };
    const person = new ConsoleBrowser(instance, '10.40.0.2');
    seen('questionnaire', (await person.get(`/q/${token}`)).statusCode);
    seen('report', (await person.get(`/r/${token}`)).statusCode);
    seen('invitation', (await person.get(`/console/invitation/${invitation}`)).statusCode);
    seen(
      'invitation',
      (await person.post(`/console/invitation/${invitation}`, { password: 'short', confirm: 'short' }))
        .statusCode,
    );
    // The link's page, and its form where it has one.
    seen('sign-in link', (await person.get(`/console/sign-in/link/${signInLink}`)).statusCode);
    seen('sign-in link', (await person.post(`/console/sign-in/link/${signInLink}`, {})).statusCode);
    // A guesser: made-up secrets, on each page and its form, until the limit answers, and paths no
    // route serves.
    const guesser = new ConsoleBrowser(instance, '10.40.0.3');
    await guesser.get('/console/sign-in');
    for (const [i, secret] of madeUp.entries()) {
      const path = i % 2 === 0 ? `/console/sign-in/link/${secret}` : `/console/invitation/${secret}`;
      seen('guess', (await guesser.get(path)).statusCode);
      seen(
        'guess',
        (await guesser.post(path, { password: 'a long passphrase', confirm: 'a long passphrase' }))
          .statusCode,
      );
    }
    seen('no route', (await guesser.get(`/Console/Invitation/${madeUp[0]}`)).statusCode);
    seen('no route', (await guesser.get(`/q/${madeUp[1]}/nowhere/at/all`)).statusCode);

    expect(statuses.invitation).toEqual([200, 400]);
    expect(statuses['no route']).toEqual([404, 404]);
    // Wrong secrets answered as such, then by the guessing limit.
    expect(statuses.guess).toContain(404);
    expect(statuses.guess?.at(-1)).toBe(429);
    const log = output.join('');
    // The requests were logged, with their secrets left out.
    for (const shown of [
      '/q/[token]',
      '/r/[token]',
      '/console/invitation/[secret]',
      '/console/sign-in/link/[secret]',
      '/Console/Invitation/[secret]',
    ]) {
      expect(log).toContain(`"url":"${shown}`);
    }
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
