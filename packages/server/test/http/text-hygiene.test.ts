import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create as createUserCommand } from '../../src/cli/users.commands.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

/**
 * Text that reaches a mail or a page (docs/decisions.md, "Text that reaches a mail"): one-line
 * fields refuse line breaks, control, bidirectional-control and invisible characters; descriptions
 * keep line breaks and lose other control characters; e-mail addresses refuse invisible,
 * bidirectional and look-alike characters and are stored with their domain normalised, which is
 * the form uniqueness sees. Each case is a finding of the audit.
 */

const error = (data: string) => ({ status: 'ERROR', data });
const unique = () => randomBytes(4).toString('hex');

const LINE_BREAKS = [
  'Ada\nMallory',
  'Ada\r\nMallory',
  'Ada\rMallory',
  'Ada\u2028Mallory',
  'Ada\u0085Mallory',
];
const ONE_LINE = 'must be one line (it contains a line break)';

/** Values a one-line field refuses, with the problem named. */
const REFUSED_LINES: [string, string][] = [
  ...LINE_BREAKS.map((value): [string, string] => [value, ONE_LINE]),
  ['Ada\u0007', 'contains a control character (U+0007)'],
  ['Ada\tLovelace', 'contains a control character (U+0009)'],
  ['Ada\u202E', 'contains a bidirectional control character (U+202E)'],
  ['\u2066Ada\u2069', 'contains a bidirectional control character (U+2066)'],
  ['Ada\u200F', 'contains a bidirectional control character (U+200F)'],
  ['A\u200Bda', 'contains an invisible character (U+200B)'],
  ['Ada\u00AD', 'contains an invisible character (U+00AD)'],
  ['\uFEFFAda', 'contains an invisible character (U+FEFF)'],
  ['\u3164', 'contains an invisible character (U+3164)'],
];

/** Real names that must keep working, stored exactly as sent. */
const REAL_NAMES = [
  'José María',
  'Zoë',
  "O'Brien",
  'Anne-Marie',
  'محمد',
  'عبد الله',
  'שרה',
  '山田',
  '김민준',
  'Ελένη',
  'Дмитрий',
  // Persian and the emoji family need ZWNJ and ZWJ.
  'می\u200Cخواهم',
  '👩\u200D👩\u200D👧',
];

/** Addresses refused, with the problem named. */
const REFUSED_EMAILS: [(local: string) => string, string][] = [
  [(l) => `${l}\u200B@example.test`, 'email: contains an invisible character (U+200B)'],
  [(l) => `${l}@exam\u00ADple.test`, 'email: contains an invisible character (U+00AD)'],
  [(l) => `\uFEFF${l}@example.test`, 'email: contains an invisible character (U+FEFF)'],
  [(l) => `${l}\u2060@example.test`, 'email: contains an invisible character (U+2060)'],
  [(l) => `${l}@example.test\u202E`, 'email: contains a bidirectional control character (U+202E)'],
  [(l) => `\u202A${l}@example.test`, 'email: contains a bidirectional control character (U+202A)'],
  [(l) => `${l}\u2067@example.test`, 'email: contains a bidirectional control character (U+2067)'],
  [(l) => `${l}\u200E@example.test`, 'email: contains a bidirectional control character (U+200E)'],
  // A Cyrillic е (U+0435) among Latin letters, in the local part or in the domain.
  [(l) => `${l}-j\u0435nny@example.test`, 'email: mixes scripts (Latin and Cyrillic)'],
  [(l) => `${l}@exampl\u0435.test`, 'email: mixes scripts (Latin and Cyrillic)'],
  [(l) => `${l}-\u03BFk@example.test`, 'email: mixes scripts (Latin and Greek)'],
  [(l) => `${l}-\uFF41@example.test`, 'email: contains fullwidth characters'],
  [(l) => `${l}@\uFF45xample.test`, 'email: contains fullwidth characters'],
  [
    (l) => `${l}-\u{1D41A}@example.test`,
    'email: contains a look-alike character (U+1D41A, which reads as "a")',
  ],
  [(l) => `${l}\n@example.test`, 'email: contains a control character (U+000A)'],
  [(l) => `${l}@example..test`, 'email: must be a valid e-mail address (the domain has an empty label)'],
];

for (const dialect of dialects) {
  describe(`text that reaches a mail (${dialect})`, () => {
    let instance: Instance;
    const memberCount = async () =>
      Number(
        (
          await instance.db.kysely
            .selectFrom('members')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const createMember = (fields: Record<string, unknown>) =>
      instance.call('POST', '/members', {
        body: { email: email('h'), firstname: 'Ada', lastname: 'Lovelace', ...fields },
      });
    const okMember = async (fields: Record<string, unknown> = {}) => {
      const response = await createMember(fields);
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data as Record<string, string>;
    };

    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('refuses line breaks, control, bidi and invisible characters in member names, on create and update', async () => {
      const before = await memberCount();
      const member = await okMember();
      for (const field of ['firstname', 'middlename', 'lastname', 'title']) {
        for (const [value, problem] of REFUSED_LINES) {
          const label = `${field} ${JSON.stringify(value)}`;
          expect((await createMember({ [field]: value })).json, label).toEqual(error(`${field}: ${problem}`));
          const patched = await instance.call('PATCH', `/members/${member.memberid}`, {
            body: { [field]: value },
          });
          expect(patched.json, label).toEqual(error(`${field}: ${problem}`));
        }
      }
      // The other one-line member fields follow the same rule.
      for (const field of ['phone', 'company', 'jobtitle']) {
        expect((await createMember({ [field]: 'Acme\nEvil' })).json).toEqual(error(`${field}: ${ONE_LINE}`));
      }
      expect(await memberCount()).toBe(before + 1);
      const stored = (await instance.call('GET', `/members/${member.memberid}`)).json.data;
      expect(stored).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace', title: '', middlename: '' });
    });

    it('refuses them in every row of an import, JSON and CSV, keeping the good rows', async () => {
      const good = email('h');
      const json = await instance.call('POST', '/members/import', {
        body: {
          members: [
            { email: email('h'), firstname: 'Ada\nMallory', lastname: 'L' },
            { email: good, firstname: 'Ada', lastname: 'Lovelace' },
            { email: email('h'), firstname: 'Ada', lastname: 'L\u202E' },
            { email: email('h'), firstname: 'Ada', lastname: 'L', title: 'Dr\u200B' },
          ],
        },
      });
      expect(json.json.data.created).toHaveLength(1);
      expect(json.json.data.errors).toEqual([
        { row: 1, message: `firstname: ${ONE_LINE}` },
        { row: 3, message: 'lastname: contains a bidirectional control character (U+202E)' },
        { row: 4, message: 'title: contains an invisible character (U+200B)' },
      ]);
      // A quoted CSV cell may hold a line break: that row is refused, not split into two lines of a mail.
      const csv = await instance.call('POST', '/members/import', {
        headers: { 'content-type': 'text/csv' },
        body: `email,firstname,lastname\n${email('h')},"Ada\nMallory",L\n${email('h')},Grace,Hopper\n`,
      });
      expect(csv.json.data.created).toHaveLength(1);
      expect(csv.json.data.errors).toEqual([{ row: 1, message: `firstname: ${ONE_LINE}` }]);
      // With update, the rule holds for a row that changes a member.
      const update = await instance.call('POST', '/members/import', {
        body: { update: true, members: [{ email: good, firstname: 'Ada\r\nMallory' }] },
      });
      expect(update.json.data).toEqual({
        created: [],
        updated: [],
        errors: [{ row: 1, message: `firstname: ${ONE_LINE}` }],
      });
    });

    it('keeps real names: accents, apostrophes, hyphens, Arabic, Hebrew, CJK, joiners', async () => {
      for (const name of REAL_NAMES) {
        const member = await okMember({ firstname: name, lastname: name, middlename: name, title: name });
        const stored = (await instance.call('GET', `/members/${member.memberid}`)).json.data;
        expect(stored, name).toMatchObject({
          firstname: name,
          lastname: name,
          middlename: name,
          title: name,
        });
      }
    });

    it('refuses line breaks and bidi controls in a campaign name and a mail subject; a description keeps its lines', async () => {
      const campaign = (body: Record<string, unknown>) =>
        instance.call('POST', '/campaigns', {
          body: { name: 'Team scan', variant: 'teamscan', start: '2026-01-01T00:00:00+00:00', ...body },
        });
      for (const [value, problem] of REFUSED_LINES) {
        expect((await campaign({ name: value })).json, JSON.stringify(value)).toEqual(
          error(`name: ${problem}`),
        );
      }
      expect(
        (await campaign({ config: { custommailsubject: { campaign_invitation: 'Join\nBcc: x@evil.test' } } }))
          .json,
      ).toEqual(error(`config.custommailsubject.campaign_invitation: ${ONE_LINE}`));
      expect(
        (await campaign({ config: { custommailsubject: { campaign_reminder: 'Hi \u202Eereh kcilc' } } }))
          .json,
      ).toEqual(
        error(
          'config.custommailsubject.campaign_reminder: contains a bidirectional control character (U+202E)',
        ),
      );
      const created = await campaign({
        name: 'استطلاع الفريق',
        description: 'Line 1\r\nLine 2\u0007\tend\rLine 3\u2028Line 4\u0085',
      });
      expect(created.json.status, created.body).toBe('OK');
      expect(created.json.data.name).toBe('استطلاع الفريق');
      expect(created.json.data.description).toBe('Line 1\nLine 2\tend\nLine 3\nLine 4\n');
      const id = created.json.data.campaignid;
      const patched = await instance.call('PATCH', `/campaigns/${id}`, { body: { name: 'Team\nscan' } });
      expect(patched.json).toEqual(error(`name: ${ONE_LINE}`));
      const described = await instance.call('PATCH', `/campaigns/${id}`, {
        body: { description: 'a\u001Bb\nc\u202Ed' },
      });
      // Free text keeps its lines and its bidirectional marks; other control characters go.
      expect(described.json.data.description).toBe('ab\nc\u202Ed');
    });

    it('refuses e-mail addresses with invisible, bidirectional or look-alike characters, at every entry point', async () => {
      const victim = await okMember({ email: `victim-${unique()}@example.test` });
      const local = String(victim.email).split('@')[0] as string;
      const before = await memberCount();
      for (const [make, message] of REFUSED_EMAILS) {
        const address = make(local);
        const label = JSON.stringify(address);
        expect((await createMember({ email: address })).json, label).toEqual(error(message));
        const patched = await instance.call('PATCH', `/members/${victim.memberid}`, {
          body: { email: address },
        });
        expect(patched.json, label).toEqual(error(message));
        const imported = await instance.call('POST', '/members/import', {
          body: { members: [{ email: address, firstname: 'A', lastname: 'B' }] },
        });
        expect(imported.json.data.errors, label).toEqual([{ row: 1, message }]);
      }
      expect(await memberCount()).toBe(before);
      expect((await instance.call('GET', `/members/${victim.memberid}`)).json.data.email).toBe(victim.email);
    });

    it('stores a domain without its trailing dot and as punycode, and uniqueness sees that form', async () => {
      const local = `dot-${unique()}`;
      const first = await okMember({ email: `${local}@Example.test.` });
      expect(first.email).toBe(`${local}@Example.test`);
      for (const again of [`${local}@example.test`, `${local}@EXAMPLE.TEST.`]) {
        expect((await createMember({ email: again })).json, again).toEqual(error('email: already exists'));
        const check = await instance.call('POST', '/members/dupecheck', { body: { value: again } });
        expect(check.json, again).toEqual({ status: 'ERROR', data: '' });
      }
      const row = await instance.db.kysely
        .selectFrom('members')
        .select(['email', 'email_key'])
        .where('id', '=', first.memberid as string)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ email: `${local}@Example.test`, email_key: `${local}@example.test` });

      // IDNA: a Unicode domain is stored as its A-label; the A-label and other spellings are the same.
      const idn = `idn-${unique()}`;
      const unicode = await okMember({ email: `${idn}@bücher.test` });
      expect(unicode.email).toBe(`${idn}@xn--bcher-kva.test`);
      for (const again of [
        `${idn}@xn--bcher-kva.test`,
        `${idn}@BÜCHER.test.`,
        `${idn.toUpperCase()}@Bücher.Test`,
      ]) {
        expect((await createMember({ email: again })).json, again).toEqual(error('email: already exists'));
        const check = await instance.call('POST', '/members/dupecheck', { body: { value: again } });
        expect(check.json, again).toEqual({ status: 'ERROR', data: '' });
      }
      expect((await okMember({ email: `${idn}@пример.test` })).email).toBe(`${idn}@xn--e1afmkfd.test`);
      expect((await createMember({ email: `${idn}@xn--zz.test` })).json).toEqual(
        error('email: the domain is not a valid internationalised domain name'),
      );

      // PATCH and import see the normalised form too.
      const other = await okMember();
      const moved = await instance.call('PATCH', `/members/${other.memberid}`, {
        body: { email: `${local}@example.test.` },
      });
      expect(moved.json).toEqual(error('email: already exists'));
      const own = await instance.call('PATCH', `/members/${other.memberid}`, {
        body: { email: `mine-${local}@bücher.test.` },
      });
      expect(own.json.data.email).toBe(`mine-${local}@xn--bcher-kva.test`);
      const imported = await instance.call('POST', '/members/import', {
        body: {
          members: [
            { email: `${local}@example.test.`, firstname: 'A', lastname: 'B' },
            { email: `twice-${local}@example.test`, firstname: 'A', lastname: 'B' },
            { email: `twice-${local}@Example.test.`, firstname: 'A', lastname: 'B' },
          ],
        },
      });
      expect(imported.json.data.errors).toEqual([
        { row: 1, message: 'email: already exists' },
        { row: 3, message: 'email: appears twice in this import' },
      ]);
      const updated = await instance.call('POST', '/members/import', {
        body: { update: true, members: [{ email: `${idn}@BÜCHER.test.`, firstname: 'Renamed' }] },
      });
      expect(updated.json.data).toEqual({ created: [], updated: [unicode.memberid], errors: [] });
    });

    it('the command line refuses such addresses and names for platform users and normalises the domain', async () => {
      const db = instance.db.kysely;
      const base = { firstname: 'Una', lastname: 'User' };
      await expect(
        createUserCommand(db, { ...base, email: `u\u200B-${unique()}@example.test` }),
      ).rejects.toThrow('email: contains an invisible character (U+200B)');
      await expect(
        createUserCommand(db, { ...base, email: `u-${unique()}@exampl\u0435.test` }),
      ).rejects.toThrow('email: mixes scripts (Latin and Cyrillic)');
      await expect(
        createUserCommand(db, { ...base, firstname: 'Una\u202E', email: `u-${unique()}@example.test` }),
      ).rejects.toThrow('--firstname: contains a bidirectional control character (U+202E)');
      await expect(
        createUserCommand(db, { ...base, 'agency-name': 'Acme\u200B', email: `u-${unique()}@example.test` }),
      ).rejects.toThrow('--agency-name: contains an invisible character (U+200B)');
      const local = `u-${unique()}`;
      const user = await createUserCommand(db, { ...base, email: `${local}@Bücher.test.` });
      expect(user.email).toBe(`${local}@xn--bcher-kva.test`);
      await expect(createUserCommand(db, { ...base, email: `${local}@xn--bcher-kva.test` })).rejects.toThrow(
        'already exists',
      );
    });
  });
}
