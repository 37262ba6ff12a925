import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { isolate } from '../util/safe-text.js';
import type { PageStrings } from './strings.js';

/** The page templates and their stylesheet: `packages/server/pages`, next to `src` and `dist`. */
const PAGES_DIR = fileURLToPath(new URL('../../pages/', import.meta.url));

/** What every page's layout reads. */
export interface LayoutModel {
  readonly t: PageStrings;
  /** The `<title>` (the page's own words; the service name follows). */
  readonly title: string;
  /** The campaign's name, shown in the header and the title. */
  readonly serviceName?: string;
  /** The agency that runs it. */
  readonly brand?: string;
  readonly footer?: string;
  readonly backHref?: string;
  /** When set, the title starts with the localised "Error: " and the error summary shows them. */
  readonly errors?: readonly { href: string; text: string }[];
}

// One Handlebars environment for the pages: `{{value}}` escapes everything, and the templates are
// ours (read once at start-up), so no template ever comes from a request or a customer.
const handlebars = Handlebars.create();
// `{{isolate value}}`: for text that cannot hold a <bdi> (the <title>): one line, and between FSI
// and PDI when it holds right-to-left text or bidirectional controls (docs/decisions.md).
handlebars.registerHelper('isolate', (value: unknown) => (typeof value === 'string' ? isolate(value) : ''));
for (const file of readdirSync(`${PAGES_DIR}partials`)) {
  if (file.endsWith('.hbs')) {
    handlebars.registerPartial(file.slice(0, -4), readFileSync(`${PAGES_DIR}partials/${file}`, 'utf8'));
  }
}
// The participant pages' templates by name (`check`), the console's under `console/`
// (`console/dashboard`): one environment, one layout, one stylesheet.
const templates = new Map<string, Handlebars.TemplateDelegate>();
for (const folder of ['', 'console/']) {
  for (const file of readdirSync(`${PAGES_DIR}${folder}`)) {
    if (file.endsWith('.hbs')) {
      templates.set(
        `${folder}${file.slice(0, -4)}`,
        handlebars.compile(readFileSync(`${PAGES_DIR}${folder}${file}`, 'utf8'), {
          strict: false,
          preventIndent: true,
        }),
      );
    }
  }
}

/** The stylesheet, served by the instance itself (no outside asset anywhere). */
export const STYLESHEET = readFileSync(`${PAGES_DIR}assets/assay.css`);
/** Changes whenever the stylesheet does, so that it may be cached for a year. */
export const STYLESHEET_VERSION = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12);
/** The console's optional script (pages/assets/console.js) and its version. */
export const CONSOLE_SCRIPT = readFileSync(`${PAGES_DIR}assets/console.js`);
export const CONSOLE_SCRIPT_VERSION = createHash('sha256').update(CONSOLE_SCRIPT).digest('hex').slice(0, 12);

/** Renders a page template (`question-page`, `check`, `message`, ...) with the layout around it. */
export function renderPage(
  name: string,
  model: LayoutModel & Record<string, unknown>,
  assets: string,
): string {
  const template = templates.get(name);
  if (!template) throw new Error(`no page template "${name}"`);
  return template({ ...model, assets, cssVersion: STYLESHEET_VERSION });
}
