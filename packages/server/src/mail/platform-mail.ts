import { asOneLine, isolate } from '../util/safe-text.js';
import { isLanguage, type Language } from '../variants/variant.types.js';
import {
  PLATFORM_STAGES,
  type PlatformMailParams,
  type PlatformStage,
  type RenderedMail,
} from './mail.types.js';
import { compileHtml, compileText, htmlIsolated, type Template } from './templates/handlebars.js';
import { standardSources } from './templates/layout.js';
import { PLATFORM_TEXTS } from './templates/platform-texts.js';
import { localeOf } from './templates/standard.js';

/**
 * Renders a platform mail (an invitation to become a user). What its templates see:
 *
 *   firstname, lastname, email   the recipient
 *   inviter                      full name of the user who invites; '' when unknown
 *   sender                       the inviter's agency name or the instance's sender name
 *   link                         the one-time link
 *   expires                      when the link stops working, in the mail's language, UTC
 *
 * Params come back from the outbox as JSON, so every value is read without trusting its shape; what
 * people typed is one line and isolated when it needs it, as in the campaign mails (render.ts).
 * Throws for an unknown stage only.
 */
export function renderPlatformMail(params: PlatformMailParams): RenderedMail {
  const stage: unknown = params.stage;
  if (!(PLATFORM_STAGES as readonly unknown[]).includes(stage)) {
    throw new Error(`mail: unknown stage "${String(stage)}"`);
  }
  const language: Language = isLanguage(params.language) ? params.language : 'enUS';
  const typed = {
    firstname: field(params.recipient, 'firstname'),
    lastname: field(params.recipient, 'lastname'),
    email: field(params.recipient, 'email'),
    inviter: [field(params.inviter, 'firstname'), field(params.inviter, 'lastname')]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    sender: asOneLine(text(params.sender)),
  };
  const ours = { link: text(params.link), expires: expiryText(params.expires, language) };
  const template = (part: 'subject' | 'text' | 'html') => compiled(language, stage as PlatformStage, part);
  const textValues = { ...ours, ...mapValues(typed, isolate) };
  const subject = oneLine(template('subject')(textValues));
  return {
    subject,
    text: tidy(template('text')(textValues)),
    html: template('html')({ ...ours, ...mapValues(typed, htmlIsolated), subject }),
  };
}

const templates = new Map<string, Template>();

function compiled(language: Language, stage: PlatformStage, part: 'subject' | 'text' | 'html'): Template {
  const key = `${language}:${stage}:${part}`;
  let template = templates.get(key);
  if (template === undefined) {
    const source = standardSources(localeOf(language), PLATFORM_TEXTS[language][stage])[part];
    template = part === 'html' ? compileHtml(source) : compileText(source);
    templates.set(key, template);
  }
  return template;
}

/** "Thursday, December 3, 2026 at 4:30 AM UTC", "donderdag 3 december 2026 om 04:30 UTC". */
export function expiryText(expires: unknown, language: Language): string {
  const date = typeof expires === 'string' ? new Date(expires) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) return typeof expires === 'string' ? asOneLine(expires) : '';
  const format = new Intl.DateTimeFormat(localeOf(language), {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return `${format.format(date)} UTC`;
}

function mapValues<T>(values: Record<string, string>, map: (value: string) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, map(value)]));
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function field(value: unknown, key: string): string {
  return typeof value === 'object' && value !== null
    ? asOneLine(text((value as Record<string, unknown>)[key]))
    : '';
}

function oneLine(value: string): string {
  return value.replace(/[ \t]*[\r\n\u2028\u2029\u0085]+[ \t]*/g, ' ').trim();
}

function tidy(value: string): string {
  return value
    .replace(/[ \t]*(?:\r\n?|\n)/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
