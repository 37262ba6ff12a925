import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLanguage, type Language, MAIL_STAGES, type MailStage } from '../../variants/variant.types.js';
import { checkSource, compileHtml, compileText, type Template } from './handlebars.js';

export type MailPart = 'subject' | 'html' | 'text';

/** A variant's own templates, by `<stage>.<language>.<part>`. */
export type Overrides = ReadonlyMap<string, Template>;

const FILE_NAME = /^([a-z_]+)\.([A-Za-z]+)\.(subject|html|text)\.hbs$/;
const NONE: Overrides = new Map();
const loaded = new Map<string, Overrides>();

export function overrideKey(stage: MailStage, language: Language, part: MailPart): string {
  return `${stage}.${language}.${part}`;
}

/**
 * The files `<dir>/mail/<stage>.<language>.<subject|html|text>.hbs`, read and compiled once per
 * variant folder (a change on disk needs a restart, like the rest of the variant). A `.hbs` file
 * with another name or a template that does not compile throws an Error naming the file.
 */
export function variantOverrides(dir: string | undefined): Overrides {
  if (typeof dir !== 'string') return NONE;
  let overrides = loaded.get(dir);
  if (overrides === undefined) {
    overrides = loadOverrides(join(dir, 'mail'));
    loaded.set(dir, overrides);
  }
  return overrides;
}

function loadOverrides(folder: string): Overrides {
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.hbs'))
      .map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return NONE;
    throw new Error(`mail templates ${folder}: unreadable (${code})`);
  }
  const overrides = new Map<string, Template>();
  for (const name of names) {
    const file = join(folder, name);
    const [, stage, language, part] = FILE_NAME.exec(name) ?? [];
    if (!isStage(stage) || !isLanguage(language) || !isPart(part)) {
      throw new Error(
        `mail template ${file}: unknown name (expected <stage>.<language>.<subject|html|text>.hbs, ` +
          `stages ${MAIL_STAGES.join(', ')})`,
      );
    }
    const source = readFileSync(file, 'utf8');
    const kind = part === 'html' ? 'html' : 'text';
    try {
      checkSource(source, kind);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`mail template ${file}: ${message.replace(/\s*\n\s*/g, ' ')}`);
    }
    overrides.set(
      overrideKey(stage, language, part),
      kind === 'html' ? compileHtml(source) : compileText(source),
    );
  }
  return overrides;
}

function isStage(value: string | undefined): value is MailStage {
  return (MAIL_STAGES as readonly (string | undefined)[]).includes(value);
}

function isPart(value: string | undefined): value is MailPart {
  return value === 'subject' || value === 'html' || value === 'text';
}
