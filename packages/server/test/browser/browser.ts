import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { createSignInLink } from '../../src/console/sessions.service.js';
import { freePort } from '../helpers/cli-process.js';
import { type Instance, startInstance } from '../helpers/instance.js';

/**
 * Real-browser tests: Debian's Chromium driven by playwright-core, against an instance listening
 * on a real port. In CI (`CI` set; `.ci/run` installs Chromium and sets it) a missing browser fails
 * the run; elsewhere the browser tests are skipped with a message saying how to run them.
 *
 * Chromium's headless shell (Debian's `chromium-headless-shell`: the same Blink and V8 without the
 * browser's interface) when it is installed, as Playwright itself runs headless Chromium: measured
 * on our pages, it takes about 40 % less CPU to load a page and run axe-core than `chromium
 * --headless`, which starts the whole browser with its WebUI renderers, and the browser tests are
 * most of the suite's CPU. `chromium` when it is not.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM =
  process.env.ASSAY_CHROMIUM ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const missing = !fs.existsSync(CHROMIUM);
const inCi = Boolean(process.env.CI) && !['false', '0'].includes(process.env.CI as string);

if (missing && inCi) {
  throw new Error(
    `CI: Chromium is missing at ${CHROMIUM}, and the browser tests never skip in CI ` +
      '(.ci/run installs it: apt-get install -y --no-install-recommends chromium-headless-shell chromium).',
  );
}
if (missing) {
  process.stdout.write(
    `\nBrowser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set ASSAY_CHROMIUM).\n\n`,
  );
}

/**
 * Where the tests leave screenshots of the page states to look at, when asked to
 * (`ASSAY_SCREENS=/tmp/assay-screens npm test`). Nothing reads them, so by default none is taken:
 * rendering and encoding a whole page costs more than the checks made on it.
 */
export const SCREENS = process.env.ASSAY_SCREENS;

/** Keeps a screenshot of the page as it is now as `<SCREENS>/<name>.png`, when screenshots are asked for. */
export async function keepScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  if (!SCREENS) return;
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ ...options, path: path.join(SCREENS, `${name}.png`) });
}

/** The axe-core rule tags every page state is checked against (WCAG 2.2 AA and best practice). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** The languages of the pages, with the `<html lang>` each gives. */
export const LANGUAGES = [
  { language: 'enUS', lang: 'en' },
  { language: 'nlNL', lang: 'nl' },
  { language: 'esES', lang: 'es' },
  { language: 'frFR', lang: 'fr' },
] as const;

/** `describe`, skipped (outside CI only) when there is no Chromium. */
export const describeInBrowser = describe.skipIf(missing);

/**
 * Chromium, whose every context (`newContext`, and the one `newPage` makes) has axe-core in each
 * document from the start, as an init script: its 580 kB are sent to the browser once per context,
 * and each renderer compiles them once (V8 finds the script again by its source), where putting
 * it into each document audited sent it every time (JSON-encoded by Playwright, relayed by the
 * browser process, decoded by the renderer). Measured on three browser files, Chromium and test
 * worker together: 6 % less CPU, though every document now runs axe's setup, audited or not.
 */
export async function launchChromium(): Promise<Browser> {
  const root = process.getuid?.() === 0;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Chromium's sandbox refuses to run as root (CI and containers); /dev/shm is small in containers.
    args: [...(root ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript({ content: AXE_SOURCE });
    return context;
  };
  // As Playwright's own newPage: a context of the page's own, closed with it.
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    // Closing the browser closes the context first; there is nothing left to close then.
    page.once('close', () => context.close().catch(() => {}));
    return page;
  };
  return browser;
}

/** An instance serving over real HTTP, whose mails link to where it listens. */
export interface ServedInstance {
  instance: Instance;
  /** `http://127.0.0.1:<port>`: the public and questionnaire URL of the instance. */
  base: string;
  close(): Promise<void>;
}

/**
 * Starts an instance (SQLite) on a free local port. Its public and questionnaire URLs must name
 * that port before it is built (the links in mails come from them), so a port is chosen first and
 * the instance then listens on it; if another process took the port meanwhile, it tries another.
 */
export async function startServedInstance(
  options: Parameters<typeof startInstance>[1] = {},
): Promise<ServedInstance> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const instance = await startInstance('sqlite', {
      ...options,
      env: { ASSAY_PUBLIC_URL: base, ASSAY_QUESTIONNAIRE_URL: base, ...options.env },
    });
    try {
      await instance.app.listen({ port, host: '127.0.0.1' });
      return { instance, base, close: () => instance.close() };
    } catch (error) {
      await instance.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
}

/** The first address in `text` under `base` with this path prefix (`/q/` or `/r/`) and a token. */
export function linkIn(text: string, base: string, kind: 'q' | 'r'): string | undefined {
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escaped}/${kind}/[A-Za-z0-9_-]{20,}`).exec(text)?.[0];
}

/** axe-core's own build, read once per test file. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's rules that judge colours alone (tag `cat.color`), off outside English. */
const COLOUR_RULES_OFF = {
  'color-contrast': { enabled: false },
  'color-contrast-enhanced': { enabled: false },
  'link-in-text-block': { enabled: false },
};

/**
 * axe-core's violations of AXE_TAGS on the page as it is now. axe runs in the page itself (our
 * pages have no frames), there from the document's start (launchChromium). This is what
 * @axe-core/playwright's legacy mode does, without its configuration round trips and its
 * injection on every call, which made it about a third slower; the suite runs some 700 of these.
 */
export async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  const { injected, lang } = await page.evaluate(() => ({
    injected: 'axe' in window,
    lang: document.documentElement.lang,
  }));
  // Every context of launchChromium's browser has it from each document's start; a page made
  // some other way would be audited by nothing.
  if (!injected) throw new Error('axe-core is not in this document: make the page with launchChromium()');
  const options: RunOptions = {
    runOnly: { type: 'tag', values: AXE_TAGS },
    resultTypes: ['violations'],
    // A page's colours are the same in every language (one stylesheet, the same elements), so the
    // colour rules, half of axe's time, run on the English pages (and any without a language) only;
    // every other rule runs in every language.
    ...(lang !== '' && lang !== 'en' && !lang.startsWith('en-') ? { rules: COLOUR_RULES_OFF } : {}),
  };
  return page.evaluate(
    (options) =>
      (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe
        .run(document, options)
        .then((results) => results.violations),
    options,
  );
}

/**
 * What is wrong with the page as it is now, a line each, starting with `label`: axe-core's
 * violations of AXE_TAGS, and sideways scrolling at the page's width.
 */
export async function pageProblems(page: Page, label: string): Promise<string[]> {
  const problems = (await axeViolations(page)).map(
    (violation) =>
      `${label}: ${violation.id} (${violation.impact}): ${violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(' ')} ${node.failureSummary?.replaceAll('\n', ' ')}`)
        .join(' | ')}`,
  );
  const { overflow, width } = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    width: document.documentElement.clientWidth,
  }));
  if (overflow > 0) problems.push(`${label}: scrolls sideways by ${overflow} px at ${width} px`);
  return problems;
}

/** The console address that signs a browser in as a user (the admin by default), once. */
export async function signInPath(instance: Instance, email = 'admin@example.test'): Promise<string> {
  const user = await instance.db.kysely
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return `/console/sign-in/link/${await createSignInLink(instance.db.kysely, user.id, new Date())}`;
}

/**
 * Signs a tab in through a one-time sign-in link (`signInPath`, as `url` the tab can open): the
 * link's page, then its button, as a person does (opening the link alone signs nobody in).
 */
export async function signInWith(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await Promise.all([page.waitForEvent('load'), page.locator('main form button[type=submit]').click()]);
  if (new URL(page.url()).pathname !== '/console') throw new Error(`sign-in link: at ${page.url()}`);
}

/** A language of LANGUAGES. */
export type Language = (typeof LANGUAGES)[number];

/**
 * An operator's tour of console pages: an instance served over HTTP, Chromium with one tab at a
 * phone's width (360 px), signed in as the admin. Each page state is checked the same way: the
 * status of the last navigation, `<html lang>`, axe-core and no sideways scrolling (`state`).
 */
export interface ConsoleTour {
  readonly served: ServedInstance;
  readonly page: Page;
  /** The problems `state` found so far, a line each (a tour ends expecting none). */
  readonly violations: string[];
  /** The console language of the pages now, as the session keeps it (`enUS` first). */
  readonly language: Language['language'];
  /** The HTTP status of the last page the tab opened. */
  readonly status: number;
  /** Opens a console address (a path of the served instance). */
  go(path: string): Promise<unknown>;
  /** Clicks the first element matching `selector` and waits for the page it leads to. */
  follow(selector: string): Promise<unknown>;
  /** Presses Enter where the focus is and waits for the page it leads to. */
  enter(): Promise<unknown>;
  /** Puts the signed-in session in this language; the next page opened speaks it. */
  useLanguage(next: Language): Promise<void>;
  /** Checks the page as it is now (status `expected`); a screenshot when asked for (SCREENS). */
  state(name: string, expected: number): Promise<void>;
  close(): Promise<void>;
}

export const PHONE = { width: 360, height: 740 };

/**
 * Starts a console tour; `screens` prefixes its screenshots' names (`<screens>-<language>-<nn>-<name>`,
 * the whole page in English). The methods need no `this`: a test may take them apart.
 */
export async function startConsoleTour(
  screens: string,
  options: Parameters<typeof startServedInstance>[0] = {},
): Promise<ConsoleTour> {
  const [served, browser] = await Promise.all([startServedInstance(options), launchChromium()]);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  let status = 0;
  page.on('response', (response) => {
    if (response.request().isNavigationRequest()) status = response.status();
  });
  const violations: string[] = [];
  let current: Language = LANGUAGES[0];
  let count = 0;
  const go = (path: string) => page.goto(`${served.base}${path}`);
  const tour: ConsoleTour = {
    served,
    page,
    violations,
    get language() {
      return current.language;
    },
    get status() {
      return status;
    },
    go,
    follow: (selector) => Promise.all([page.waitForEvent('load'), page.locator(selector).first().click()]),
    enter: () => Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]),
    async useLanguage(next) {
      current = next;
      await served.instance.db.kysely
        .updateTable('console_sessions')
        .set({ language: next.language })
        .execute();
    },
    async state(name, expected) {
      const label = `${current.language} ${name}`;
      expect(status, label).toBe(expected);
      expect(await page.locator('html').getAttribute('lang'), label).toBe(current.lang);
      violations.push(...(await pageProblems(page, label)));
      await keepScreenshot(
        page,
        `${screens}-${current.language}-${String(++count).padStart(2, '0')}-${name}`,
        {
          fullPage: current.language === 'enUS',
        },
      );
    },
    async close() {
      await context.close();
      await browser.close();
      await served.close();
    },
  };
  try {
    await signInWith(page, `${served.base}${await signInPath(served.instance)}`);
  } catch (error) {
    await tour.close();
    throw error;
  }
  return tour;
}
