import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSALS, type RefusalText } from '../../src/console/refusal-strings.js';
import { refusalIn } from '../../src/console/refusals.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { makeCampaign } from './campaign-fixtures.js';

const LANGUAGES = ['nlNL', 'esES', 'frFR'] as const;
const placeholders = (text: string) => [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]).sort();
const entry = (en: string): RefusalText => {
  const found = REFUSALS.find((text) => text.en === en);
  if (!found) throw new Error(`no refusal text "${en}"`);
  return found;
};

describe('console refusals: the services’ messages in the viewer’s language', () => {
  it('translates each problem’s text and keeps its field and values', () => {
    expect(refusalIn('enUS', 'email: a user ada@example.test already exists')).toBe(
      'email: a user ada@example.test already exists',
    );
    const userExists = entry('a user {email} already exists');
    const empty = entry('must not be empty');
    const required = entry('is required');
    for (const language of LANGUAGES) {
      expect(refusalIn(language, 'email: a user ada@example.test already exists')).toBe(
        `email: ${userExists[language].replace('{email}', 'ada@example.test')}`,
      );
      // Several problems in one message, each translated; a text alone, without a field.
      expect(refusalIn(language, 'name: must not be empty; variant: is required')).toBe(
        `name: ${empty[language]}; variant: ${required[language]}`,
      );
      expect(refusalIn(language, 'no reports selected')).toBe(entry('no reports selected')[language]);
      // A semicolon inside one problem's text does not split it.
      expect(refusalIn(language, 'group: has sub-groups; move or delete them first')).toBe(
        `group: ${entry('has sub-groups; move or delete them first')[language]}`,
      );
      // What the console does not know is shown as the service words it.
      expect(refusalIn(language, 'colour: a problem nobody wrote down')).toBe(
        'colour: a problem nobody wrote down',
      );
    }
  });

  it('has every text in every language, with the same placeholders', () => {
    // Two texts that differ only in their placeholders' names would be one pattern.
    const seen = new Set<string>();
    for (const text of REFUSALS) {
      const pattern = text.en.replace(/\{[A-Za-z_]+\}/g, '{}');
      expect(seen.has(pattern), `"${text.en}" twice`).toBe(false);
      seen.add(pattern);
      for (const language of LANGUAGES) {
        expect(text[language].trim(), `${language} of "${text.en}"`).not.toBe('');
        expect(placeholders(text[language]), `${language} of "${text.en}"`).toEqual(placeholders(text.en));
      }
    }
  });

  // Every refusal a service words as a literal (outside the command line, which speaks English)
  // has its translations: a new message fails here until it is added to refusal-strings.ts.
  it('knows every refusal the services word, but the command line’s', () => {
    const src = path.resolve(import.meta.dirname, '../../src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith(`cli${path.sep}`))
      .map((file) => path.join(src, file));
    const quoted = String.raw`('(?:[^'\\]|\\.)*'|\`(?:[^\`\\]|\\.|\$\{(?:[^{}]|\{[^{}]*\})*\})*\`)`;
    // Thrown as a refusal; or, outside the console (whose own words are in its strings files), a
    // rule's problem that services put in a refusal (`email: ${address.problem}`).
    const thrown = new RegExp(
      String.raw`(?:new BusinessError|new Invalid)\(\s*(?:[A-Za-z_.]+,\s*)?` + quoted,
      'g',
    );
    const ruled = new RegExp(String.raw`(?:refused\(|problem: )\s*` + quoted, 'g');
    const field = /^(?:[A-Za-z][A-Za-z0-9_.[\]-]*|\$\{[^}]+\}(?:\.\$\{[^}]+\})?): /;
    const wild = (text: string) => text.replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}|\{[A-Za-z_]+\}/g, '*');
    const known = new Set(REFUSALS.map((text) => wild(text.en)));
    // Messages that choose English words at run time: their every form is in REFUSALS instead.
    const chosenAtRunTime = new Set([
      'used by group report* *; delete * first',
      'is *; mail goes out only while it is active',
      'must be a *',
    ]);
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const console = path.relative(src, file).startsWith(`console${path.sep}`);
      for (const match of [...text.matchAll(thrown), ...(console ? [] : text.matchAll(ruled))]) {
        const words = wild((match[1] as string).slice(1, -1).replace(field, ''));
        if (words === '*' || known.has(words) || chosenAtRunTime.has(words)) continue;
        missing.push(`${path.relative(src, file)}: ${words}`);
      }
    }
    expect(missing).toEqual([]);
    for (const language of LANGUAGES) {
      expect(refusalIn(language, 'report: used by group reports r1, r2; delete them first')).toBe(
        `report: ${entry('used by group reports {reports}; delete them first')[language].replace('{reports}', 'r1, r2')}`,
      );
      expect(refusalIn(language, 'campaign: is ended; mail goes out only while it is active')).not.toContain(
        'mail goes out',
      );
    }
  });
});

describe.each(dialects)('console refusals on the pages (%s)', (dialect) => {
  let instance: Instance;
  let dutch: ConsoleBrowser;
  let french: ConsoleBrowser;

  beforeAll(async () => {
    instance = await startInstance(dialect);
    dutch = await new ConsoleBrowser(instance).signIn();
    await dutch.post('/console/language', { language: 'nlNL', next: '/console' });
    french = await new ConsoleBrowser(instance).signIn();
    await french.post('/console/language', { language: 'frFR', next: '/console' });
  });
  afterAll(() => instance?.close());

  it('shows a group form’s refusal in the operator’s language, next to its field', async () => {
    const alias = `taken${Date.now().toString(36)}`;
    const made = await instance.call('POST', '/groups', {
      body: { name: `Taken ${alias}`, alias, parentgroup: 'root' },
    });
    expect(made.json.status).toBe('OK');
    const before = (await instance.call('GET', '/groups')).json.data.length;
    for (const [browser, language] of [
      [dutch, 'nlNL'],
      [french, 'frFR'],
    ] as const) {
      const response = await browser.post('/console/groups/new', { name: 'Other', alias });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('id="field-alias-error"');
      expect(response.body).toContain(`alias: ${entry('already exists')[language]}`);
      expect(response.body).not.toContain('alias: already exists');
    }
    expect((await instance.call('GET', '/groups')).json.data.length).toBe(before);
  });

  it('shows a campaign setting’s refusal in the operator’s language, the API’s field words kept', async () => {
    const spanish = await new ConsoleBrowser(instance).signIn();
    await spanish.post('/console/language', { language: 'esES', next: '/console' });
    const id = await makeCampaign(instance, { name: 'Ajustes' });
    const end = await spanish.post(`/console/campaigns/${id}/settings/end`, {
      'end-day': '1',
      'end-month': '1',
      'end-year': '2099',
    });
    expect(end.statusCode).toBe(400);
    expect(end.body).toContain('id="end-day-error"');
    expect(end.body).toContain(
      `end: ${entry('only a campaign whose closingtype is date has an end; leave it out or null').esES}`,
    );
    const variant = await spanish.post(`/console/campaigns/${id}/settings/variant`, { value: 'bigfive' });
    expect(variant.body).toContain(`variant: ${entry('cannot change after the campaign is created').esES}`);
    expect((await instance.call('GET', `/campaigns/${id}`)).json.data.variant).toBe('teamscan');
  });

  it('shows a member form’s refusal with its value kept', async () => {
    const address = email('taken');
    const made = await instance.call('POST', '/members', {
      body: { email: address, firstname: 'Ada', lastname: 'Lovelace' },
    });
    expect(made.json.status).toBe('OK');
    const response = await dutch.post('/console/members/new', {
      email: address,
      firstname: 'Ada',
      lastname: 'Again',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(`email: ${entry('already exists').nlNL}`);
  });
});
