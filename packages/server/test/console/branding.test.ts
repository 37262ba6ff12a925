import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { findUserByEmail } from '../../src/auth/auth.repository.js';
import { createUser } from '../../src/auth/auth.service.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const ADMIN = 'admin@example.test';

/** "Branding": the agency name, footer and colour of one's reports, with the cover as SVG. */
describe.each(dialects)('console branding (%s)', (dialect) => {
  let instance: Instance;
  let browser: ConsoleBrowser;
  beforeAll(async () => {
    instance = await startInstance(dialect);
    browser = await new ConsoleBrowser(instance).signIn();
  });
  afterAll(() => instance?.close());

  const saved = async (address = ADMIN) => {
    const user = await findUserByEmail(instance.db.kysely, address);
    return { agencyname: user?.agencyname, agencyfooter: user?.agencyfooter, color: user?.color };
  };
  /**
   * A user of the test's own, signed in: branding is each user's, so a test that reads what is
   * saved starts from the defaults, whatever the others saved before it.
   */
  const ownUser = async () => {
    const user = await createUser(
      instance.db.kysely,
      { email: email('branding'), firstname: 'Brand', lastname: 'Owner' },
      cliActor(),
    );
    return { browser: await new ConsoleBrowser(instance).signIn(user.email), address: user.email };
  };

  it('shows the saved values and the cover, and is in the navigation', async () => {
    const { browser } = await ownUser();
    const page = await browser.get('/console/branding');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Branding of your reports – Assay console</title>');
    expect(page.body).toContain('href="/console/branding" aria-current="page"');
    expect(page.body).toContain('value="#1d70b8"');
    expect(page.body).toMatch(
      /<img class="branding__cover" src="\/console\/branding\/preview\.svg\?[^"]*color&#x3D;%231d70b8/,
    );
  });

  it('saves the values, normalised as the CLI does', async () => {
    const { browser, address } = await ownUser();
    const done = await browser.post('/console/branding', {
      agencyname: '  Acme Assessments ',
      agencyfooter: 'Acme BV\r\nKeizersgracht 1\r\n',
      color: '#00703C',
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/console/branding?saved=1');
    expect(await saved(address)).toEqual({
      agencyname: 'Acme Assessments',
      agencyfooter: 'Acme BV\nKeizersgracht 1',
      color: '#00703c',
    });
    const page = await browser.get('/console/branding?saved=1');
    expect(page.body).toContain('Your branding has been saved.');
    expect(page.body).toContain('Acme BV\nKeizersgracht 1</textarea>');
  });

  it('refuses a colour too pale for text with the reason, and saves nothing', async () => {
    const { browser, address } = await ownUser();
    // A colour saved first, for the cover to keep.
    const colour = await browser.post('/console/branding', {
      agencyname: 'Acme Assessments',
      agencyfooter: '',
      color: '#00703C',
    });
    expect(colour.statusCode).toBe(303);
    const before = await saved(address);
    const pale = await browser.post('/console/branding', {
      agencyname: 'Changed',
      agencyfooter: 'Changed',
      color: '#ffdd00',
    });
    expect(pale.statusCode).toBe(400);
    expect(pale.body).toContain('<title>Error: Branding of your reports – Assay console</title>');
    expect(pale.body).toContain(
      'Colour: the colour #ffdd00 has a contrast of 1.3:1 against white; text needs at least 4.5:1',
    );
    expect(pale.body).toContain('href="#color"');
    // The typed values stay in the form; the cover keeps the saved colour.
    expect(pale.body).toContain('value="Changed"');
    expect(pale.body).toMatch(/preview\.svg\?[^"]*color&#x3D;%2300703c/);
    expect(await saved(address)).toEqual(before);
  });

  it('refuses bad values with the CLI’s messages, and saves nothing', async () => {
    const before = await saved();
    const cases: [Record<string, string>, string, string][] = [
      [{ color: 'red' }, '#color', 'Colour: must be #rgb or #rrggbb (like #1d70b8), got &quot;red&quot;'],
      [{ color: '' }, '#color', 'Colour: must be #rgb or #rrggbb (like #1d70b8), got &quot;&quot;'],
      [{ agencyname: 'a'.repeat(256) }, '#agencyname', 'Agency name: at most 255 characters, got 256'],
      [
        { agencyname: 'Two\u0007bells' },
        '#agencyname',
        'Agency name: must be one line, without control characters',
      ],
      [{ agencyname: 'Evil\u202ename' }, '#agencyname', 'Agency name:'],
      [{ agencyfooter: 'x'.repeat(1001) }, '#agencyfooter', 'Footer: at most 1000 characters, got 1001'],
      [
        { agencyfooter: 'a\u0000b' },
        '#agencyfooter',
        'Footer: must not contain control characters other than line breaks and tabs',
      ],
    ];
    for (const [fields, href, message] of cases) {
      const answer = await browser.post('/console/branding', {
        agencyname: 'Fine',
        agencyfooter: 'Fine',
        color: '#0b0c0c',
        ...fields,
      });
      expect(answer.statusCode, message).toBe(400);
      expect(answer.body).toContain(message);
      expect(answer.body).toContain(`href="${href}"`);
    }
    expect(await saved()).toEqual(before);
  });

  it('refuses a post without the session’s form token', async () => {
    const before = await saved();
    const forged = await browser.post('/console/branding', { agencyname: 'X', color: '#000000' }, null);
    expect(forged.statusCode).toBe(403);
    const wrong = await browser.post('/console/branding', { agencyname: 'X', color: '#000000' }, 'nope');
    expect(wrong.statusCode).toBe(403);
    expect(await saved()).toEqual(before);
  });

  it('previews typed values without saving, and takes the form token off the address', async () => {
    const before = await saved();
    const typed = { agencyname: 'Preview Co', agencyfooter: 'Line', color: '#4c2c92' };
    const viaButton = await browser.get(
      `/console/branding?${new URLSearchParams({ csrf: browser.csrf, ...typed, preview: '1' })}`,
    );
    expect(viaButton.statusCode).toBe(303);
    expect(viaButton.headers.location).not.toContain('csrf');
    const page = await browser.get(viaButton.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('value="Preview Co"');
    expect(page.body).toMatch(
      /preview\.svg\?agencyname&#x3D;Preview\+Co&amp;agencyfooter&#x3D;Line&amp;color&#x3D;%234c2c92/,
    );
    expect(await saved()).toEqual(before);

    const svg = await browser.get(`/console/branding/preview.svg?${new URLSearchParams(typed)}`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.headers['content-security-policy']).toContain("default-src 'none'");
    expect(svg.body).toContain('fill="#4c2c92"');
    expect(svg.body).toContain('>Preview Co</text>');
    expect(await saved()).toEqual(before);

    // A typed colour the rules refuse is shown as an error; the cover keeps the saved colour.
    const pale = await browser.get(
      `/console/branding?${new URLSearchParams({ ...typed, color: '#777777' })}`,
    );
    expect(pale.statusCode).toBe(400);
    expect(pale.body).toContain('has a contrast of 4.4:1 against white');
    const paleSvg = await browser.get('/console/branding/preview.svg?color=%23ffdd00');
    expect(paleSvg.body).toContain(`fill="${before.color}"`);
    expect(paleSvg.body).not.toContain('#ffdd00');
  });

  it('escapes names in the SVG, right-to-left ones included', async () => {
    const name = '<script>alert(1)</script> & "Co" \u05e9\u05dc\u05d5\u05dd';
    const svg = await browser.get(
      `/console/branding/preview.svg?${new URLSearchParams({ agencyname: name, agencyfooter: '</svg><b>x</b>' })}`,
    );
    expect(svg.statusCode).toBe(200);
    expect(svg.body).not.toContain('<script');
    expect(svg.body).not.toContain('<b>');
    expect(svg.body).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot; \u05e9\u05dc\u05d5\u05dd',
    );
    expect(svg.body).toContain('&lt;/svg&gt;&lt;b&gt;x&lt;/b&gt;');
    expect(svg.body.match(/<\/svg>/g)).toHaveLength(1);
  });

  it('is for signed-in users only', async () => {
    const stranger = new ConsoleBrowser(instance);
    expect((await stranger.get('/console/branding')).statusCode).toBe(303);
    expect((await stranger.get('/console/branding/preview.svg')).statusCode).toBe(303);
  });
});
