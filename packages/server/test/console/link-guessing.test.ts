import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { setPassword } from '../../src/cli/commands.js';
import { createSignInLink } from '../../src/console/sessions.service.js';
import type { Db } from '../../src/db/database.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const ADMIN = 'admin@example.test';
const PASSWORD = 'correct horse battery';
/** ASSAY_TOKEN_FAILURES_PER_MINUTE's default: the sign-in pages' guessing limit a minute. */
const LIMIT = 20;

let ipCounter = 0;
/** A caller address of its own for each test: no test spends another's budget. */
const freshIp = () => `10.88.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
/**
 * The instances' clock, standing still: every guess below falls in one window of the limit however
 * slowly the machine answers them.
 */
const now = new Date();
/** A secret of the right shape that was never issued. */
const madeUp = () => randomBytes(32).toString('base64url');

type Answer = { statusCode: number; headers: Record<string, unknown>; body: string };

/** The guessing limit's page: 429, a Retry-After within the minute, and the words in the language. */
function expectWait(answer: Answer, words = 'Too many failed attempts') {
  expect(answer.statusCode).toBe(429);
  const wait = Number(answer.headers['retry-after']);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
  expect(answer.body).toContain(words);
  expect(answer.headers['content-type']).toContain('text/html');
}

/**
 * The one-time links' pages (`/console/sign-in/link/<secret>` and `/console/invitation/<secret>`)
 * count a secret that opens nothing against the sign-in page's guessing limit, per caller address:
 * the same limiter and count as wrong passwords, on both engines.
 */
describe.each(dialects)('console: guessing one-time links (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    // The default limit (20 a minute): what an instance answers unless configured otherwise.
    instance = await startInstance(dialect, { clock: () => now });
    await setPassword(instance.db.kysely, ADMIN, PASSWORD);
    admin = await new ConsoleBrowser(instance, '10.99.0.1').signIn();
  });
  afterAll(() => instance?.close());

  const linkUsed = async (secret: string) => {
    const row = await instance.db.kysely
      .selectFrom('console_sign_in_links')
      .select('used')
      .where('token_hash', '=', sha256(secret))
      .executeTakeFirstOrThrow();
    return row.used;
  };

  /** Invites a user through the console; answers the path of the link their mail carries. */
  async function invitationPath(): Promise<string> {
    const address = email('guess');
    await admin.get('/console/access/users');
    const invited = await admin.post('/console/access/users/invite', {
      email: address,
      firstname: 'Gus',
      lastname: 'Guess',
      language: 'enUS',
    });
    expect(invited.statusCode).toBe(303);
    const mail = await instance.db.kysely
      .selectFrom('mail_outbox')
      .select('params')
      .where('recipient', '=', address)
      .executeTakeFirstOrThrow();
    const link = String(JSON.parse(mail.params).link);
    return new URL(link).pathname;
  }

  it('answers 429 with Retry-After from the 21st wrong sign-in link on, and then opens no link, not even a right one', async () => {
    const guesser = new ConsoleBrowser(instance, freshIp());
    // The form token a link page's button posts with.
    await guesser.get('/console/sign-in');
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      // Half of the guesses open the link's page, half post its button: the secret is checked by both.
      const path = `/console/sign-in/link/${madeUp()}`;
      const answer = i % 2 === 0 ? await guesser.get(path) : await guesser.post(path, {});
      statuses.push(answer.statusCode);
      if (i >= LIMIT) expectWait(answer);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(404), ...Array(LIMIT).fill(429)]);

    // At the limit the secret is not even looked up: a right link is refused and stays unused.
    const user = await instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    const secret = await createSignInLink(instance.db.kysely, user.id, now);
    for (const refused of [
      await guesser.get(`/console/sign-in/link/${secret}`),
      await guesser.post(`/console/sign-in/link/${secret}`, {}),
    ]) {
      expectWait(refused);
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    expect(await linkUsed(secret)).toBeNull();
    // Another address is not held up: the same link's page, then its button, signs it in.
    const other = new ConsoleBrowser(instance, freshIp());
    expect((await other.get(`/console/sign-in/link/${secret}`)).statusCode).toBe(200);
    expect(await linkUsed(secret)).toBeNull();
    const signedIn = await other.post(`/console/sign-in/link/${secret}`, {});
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/console');
    expect(await linkUsed(secret)).not.toBeNull();
  });

  it('answers 429 with Retry-After from the 21st wrong invitation link on, on the page and its form', async () => {
    const guesser = new ConsoleBrowser(instance, freshIp());
    await guesser.get('/console/sign-in');
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      // Half of the guesses open the page, half post its form: the secret is checked by both.
      const path = `/console/invitation/${madeUp()}`;
      const answer =
        i % 2 === 0
          ? await guesser.get(path)
          : await guesser.post(path, {
              password: 'a long enough passphrase',
              confirm: 'a long enough passphrase',
            });
      statuses.push(answer.statusCode);
      if (i >= LIMIT) expectWait(answer);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(404), ...Array(LIMIT).fill(429)]);

    // A right link waits too, and is neither shown nor used.
    const path = await invitationPath();
    const page = await guesser.get(path);
    expectWait(page);
    expect(page.body).not.toContain('Choose your password');
    const posted = await guesser.post(path, {
      password: 'a long enough passphrase',
      confirm: 'a long enough passphrase',
    });
    expectWait(posted);
    expect(posted.headers['set-cookie']).toBeUndefined();
    expect(await linkUsed(path.split('/').at(-1) as string)).toBeNull();
    const other = new ConsoleBrowser(instance, freshIp());
    expect((await other.get(path)).statusCode).toBe(200);
  });

  it('counts wrong passwords, wrong sign-in links and wrong invitation links against one budget', async () => {
    const ip = freshIp();
    const guesser = new ConsoleBrowser(instance, ip);
    await guesser.get('/console/sign-in');
    for (let i = 0; i < 10; i++) {
      expect((await guesser.post('/console/sign-in', { email: ADMIN, password: 'not it' })).statusCode).toBe(
        401,
      );
    }
    for (let i = 0; i < 5; i++) {
      expect((await guesser.get(`/console/sign-in/link/${madeUp()}`)).statusCode).toBe(404);
      expect((await guesser.get(`/console/invitation/${madeUp()}`)).statusCode).toBe(404);
    }
    // 20 failures: the right password, a made-up link and an invitation all wait now.
    const password = await guesser.post('/console/sign-in', { email: ADMIN, password: PASSWORD });
    expectWait(password);
    expect(password.body).toContain('<form');
    expectWait(await guesser.get(`/console/sign-in/link/${madeUp()}`));
    expectWait(await guesser.get(`/console/invitation/${madeUp()}`));

    // The wait is said in the operator's language.
    for (const [language, words] of [
      ['nl-NL', 'Te veel mislukte pogingen'],
      ['es-ES', 'Demasiados intentos fallidos'],
      ['fr-FR', 'Trop de tentatives échouées'],
    ] as const) {
      const speaker = new ConsoleBrowser(instance, ip, { 'accept-language': language });
      expectWait(await speaker.get(`/console/sign-in/link/${madeUp()}`), words);
      expectWait(await speaker.get(`/console/invitation/${madeUp()}`), words);
    }
  });

  it('lets a right link work below the limit, after 19 wrong ones', async () => {
    const ip = freshIp();
    const guesser = new ConsoleBrowser(instance, ip);
    for (let i = 0; i < LIMIT - 1; i++) {
      const path = i % 2 === 0 ? `/console/sign-in/link/${madeUp()}` : `/console/invitation/${madeUp()}`;
      expect((await guesser.get(path)).statusCode).toBe(404);
    }
    const user = await instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    // A right link: its page and its button are no failures either.
    const link = `/console/sign-in/link/${await createSignInLink(instance.db.kysely, user.id, now)}`;
    expect((await guesser.get(link)).statusCode).toBe(200);
    expect((await guesser.post(link, {})).statusCode).toBe(303);

    const invitee = new ConsoleBrowser(instance, ip);
    const path = await invitationPath();
    // Opening the page, a refused password and the accepted one: a right secret is no failure.
    expect((await invitee.get(path)).statusCode).toBe(200);
    expect((await invitee.post(path, { password: 'short', confirm: 'short' })).statusCode).toBe(400);
    const accepted = await invitee.post(path, {
      password: 'a long enough passphrase',
      confirm: 'a long enough passphrase',
    });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/console');
    // Still 19 failures: the 20th is answered as the wrong link it is, the 21st waits.
    expect((await guesser.get(`/console/sign-in/link/${madeUp()}`)).statusCode).toBe(404);
    expectWait(await guesser.get(`/console/sign-in/link/${madeUp()}`));
  });
});

describe.runIf(dialects.includes('postgres'))(
  'console: guessing one-time links at two processes (postgres)',
  () => {
    let instance: Instance;
    let otherDb: Db;
    let second: FastifyInstance;

    beforeAll(async () => {
      instance = await startInstance('postgres', { clock: () => now });
      await setPassword(instance.db.kysely, ADMIN, PASSWORD);
      otherDb = instance.otherProcess();
      second = await buildApp({
        config: instance.config,
        database: otherDb,
        background: false,
        clock: () => now,
      });
      await second.ready();
    });
    afterAll(async () => {
      await second?.close();
      await otherDb?.close();
      await instance?.close();
    });

    it('holds the limit for an address whose wrong links and passwords are spread over both processes', async () => {
      const ip = freshIp();
      const a = new ConsoleBrowser(instance, ip);
      const b = new ConsoleBrowser({ ...instance, app: second }, ip);
      await a.get('/console/sign-in');
      await b.get('/console/sign-in');
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT; i++) {
        // Each process sees each kind of guess: a sign-in link, an invitation link, a password.
        const browser = i % 2 === 0 ? a : b;
        const answer =
          i % 3 === 0
            ? await browser.get(`/console/sign-in/link/${madeUp()}`)
            : i % 3 === 1
              ? await browser.get(`/console/invitation/${madeUp()}`)
              : await browser.post('/console/sign-in', { email: ADMIN, password: 'not it' });
        statuses.push(answer.statusCode);
      }
      expect(statuses.filter((status) => status === 429)).toEqual([]);
      // Twenty failures between them: both processes refuse every page from the 21st on.
      for (const browser of [a, b, a, b]) {
        expectWait(await browser.get(`/console/sign-in/link/${madeUp()}`));
        expectWait(await browser.get(`/console/invitation/${madeUp()}`));
      }
      const failures = await instance.db.kysely
        .selectFrom('guess_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', 'sign-in')
        .where('key', '=', ip)
        .executeTakeFirstOrThrow();
      expect(Number(failures.n)).toBe(LIMIT);
    });
  },
);

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
