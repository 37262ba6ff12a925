import { asOneLine, isolate } from '../util/safe-text.js';
import {
  isLanguage,
  type Language,
  MAIL_STAGES,
  type MailStage,
  type Variant,
  type VariantRegistry,
} from '../variants/variant.types.js';
import { isPlatformMail, type MailParams, type OutboxParams, type RenderedMail } from './mail.types.js';
import { renderPlatformMail } from './platform-mail.js';
import { escapeHtml, htmlIsolated } from './templates/handlebars.js';
import { htmlDocument } from './templates/layout.js';
import { type MailPart, overrideKey, variantOverrides } from './templates/overrides.js';
import { localeOf, standardTemplate } from './templates/standard.js';
import { fillPlaceholders, type PlaceholderValues, renderVariantBody } from './templates/variant-text.js';
import { isWebhookMail, renderWebhookMail } from './webhook-mail.js';

/**
 * Template ids. `standard`: the templates shipped with Assay (templates/<language>.ts), which a
 * variant may replace part by part with `mail/<stage>.<language>.<subject|html|text>.hbs` files in
 * its folder. `variant`: the variant's own texts `mail.<stage>.subject` and `mail.<stage>.body`
 * (standard when the variant has no texts in the mail's language). Any other id renders as
 * `standard`: ids are opaque to the spec.
 */
export const TEMPLATE_IDS = ['standard', 'variant'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/**
 * What the Handlebars templates (standard and override files) see:
 *
 *   firstname, lastname, title, email  the recipient
 *   campaignname                       the campaign's name
 *   variantname                        the variant's display name (text `variant.name`) in the mail's language
 *   link                               the questionnaire link (invitation, reminder) or report link; '' when none
 *   end                                the closing date as a long date in the mail's language (UTC); '' when none
 *   sender                             the agency or instance name
 *   inviter                            full name of the user who runs the campaign; '' when unknown
 *   subjectname                        full name of the member the mail is about (confirmation_admin); ''
 *   minutes                            estimated minutes of the questionnaire; '' when unknown
 *   subject                            HTML part only: the final subject, for <title>
 *
 * Helpers: `{{#if}}`, `{{#unless}}` and `{{plural minutes "minute" "minutes"}}`; the data is flat, so
 * `each`, `with`, `lookup`, `log` and `@data` are off (an override file using them fails to load).
 * The HTML part escapes every `{{value}}`; subjects and text parts are compiled with `noEscape`.
 * Subjects are collapsed to one line; text parts keep at most one blank line between paragraphs.
 *
 * The values people typed (every one but link, end and minutes) are one line each, whatever is
 * stored (a line break becomes a space), and one that holds right-to-left text or bidirectional
 * controls is isolated: between FSI and PDI in subjects and text parts, in a `<bdi>` in HTML
 * (docs/decisions.md, "Text that reaches a mail").
 */
export interface TemplateValues {
  readonly firstname: string;
  readonly lastname: string;
  readonly title: string;
  readonly email: string;
  readonly campaignname: string;
  readonly variantname: string;
  readonly link: string;
  readonly end: string;
  readonly sender: string;
  readonly inviter: string;
  readonly subjectname: string;
  readonly minutes: number | '';
}

/**
 * Renders one mail (a campaign's, or a platform mail: platform-mail.ts). Pure apart from reading a variant's override files once; every template is
 * compiled once. Never throws on the content of params (every value is escaped in HTML); throws
 * for an unknown variant or stage, or a broken override file of the variant.
 */
export function renderMail(variants: VariantRegistry, params: OutboxParams): RenderedMail {
  // The platform's own mails (an invitation to become a user; a webhook disabled, to its owner)
  // belong to no campaign or variant.
  if (isPlatformMail(params)) return renderPlatformMail(params);
  if (isWebhookMail(params)) return renderWebhookMail(params);
  const variant = variants.get(params.variant);
  if (variant === undefined) throw new Error(`mail: unknown variant "${String(params.variant)}"`);
  const stage = params.stage;
  if (!(MAIL_STAGES as readonly unknown[]).includes(stage)) {
    throw new Error(`mail: unknown stage "${String(stage)}"`);
  }
  const language = isLanguage(params.language) ? params.language : variant.defaultLanguage;
  const values = templateValues(variant, language, params);
  const placeholders = placeholderValues(stage, values, params);
  // fillPlaceholders isolates what people typed: a subject is plain text.
  const custom =
    typeof params.subject === 'string' && params.subject.trim() !== ''
      ? oneLine(fillPlaceholders(params.subject, placeholders))
      : undefined;
  if (params.template === 'variant') {
    const own = renderVariantTexts(variant, stage, language, values, placeholders, custom);
    if (own !== undefined) return own;
  }
  return renderStandard(variant, stage, language, values, custom);
}

function renderStandard(
  variant: Variant,
  stage: MailStage,
  language: Language,
  values: TemplateValues,
  custom: string | undefined,
): RenderedMail {
  const overrides = variantOverrides(variant.dir);
  const template = (part: MailPart) =>
    overrides.get(overrideKey(stage, language, part)) ?? standardTemplate(language, stage, part);
  const text = textValues(values);
  const subject = custom ?? oneLine(template('subject')(text));
  return {
    subject,
    text: tidyText(template('text')(text)),
    html: template('html')({ ...htmlValues(values), subject }),
  };
}

function renderVariantTexts(
  variant: Variant,
  stage: MailStage,
  language: Language,
  values: TemplateValues,
  placeholders: PlaceholderValues,
  custom: string | undefined,
): RenderedMail | undefined {
  const texts = variant.texts[language];
  const subjectText = texts?.[`mail.${stage}.subject`];
  const body = texts?.[`mail.${stage}.body`];
  if (subjectText === undefined || body === undefined) return undefined;
  const subject = custom ?? oneLine(fillPlaceholders(subjectText, placeholders));
  const rendered = renderVariantBody(body, placeholders);
  const footer = standardTemplate(language, stage, 'footer')(htmlValues(values));
  return {
    subject,
    text: rendered.text,
    html: htmlDocument(localeOf(language), escapeHtml(subject), rendered.html, footer),
  };
}

function templateValues(variant: Variant, language: Language, params: MailParams): TemplateValues {
  const recipient: unknown = params.recipient;
  const campaign: unknown = params.campaign;
  const minutes = params.minutes;
  return {
    firstname: field(recipient, 'firstname'),
    lastname: field(recipient, 'lastname'),
    title: field(recipient, 'title'),
    email: field(recipient, 'email'),
    campaignname: field(campaign, 'name'),
    variantname: asOneLine(
      variant.texts[language]?.['variant.name'] ??
        variant.texts[variant.defaultLanguage]?.['variant.name'] ??
        variant.alias,
    ),
    link: asText(params.link),
    end: formatEnd(isObject(campaign) ? campaign.end : undefined, language),
    sender: asOneLine(asText(params.sender)),
    inviter: fullName(params.inviter),
    subjectname: fullName(params.subjectMember),
    minutes:
      typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0
        ? Math.max(1, Math.round(minutes))
        : '',
  };
}

/**
 * The `{name}` placeholders of variant texts and custom subjects. In confirmation_admin the
 * variants' texts use `{firstname} {lastname}` for the member who completed, so there they name
 * the subject member (when given), not the admin who receives the mail.
 */
function placeholderValues(stage: MailStage, values: TemplateValues, params: MailParams): PlaceholderValues {
  const about: unknown = params.subjectMember;
  const person = stage === 'confirmation_admin' && isObject(about);
  return {
    firstname: person ? field(about, 'firstname') : values.firstname,
    lastname: person ? field(about, 'lastname') : values.lastname,
    campaignname: values.campaignname,
    link: values.link,
    end: values.end,
    sender: values.sender,
  };
}

const dateFormats = new Map<Language, Intl.DateTimeFormat>();
// A campaign's mails share its end: formatting is the costliest step of a render, so remember a few.
const formattedEnds = new Map<string, string>();

/** "Friday, December 4, 2026", "vrijdag 4 december 2026": the day in UTC, as the wire moment names it. */
function formatEnd(end: unknown, language: Language): string {
  if (typeof end !== 'string' || end.trim() === '') return '';
  const key = `${language} ${end}`;
  let formatted = formattedEnds.get(key);
  if (formatted === undefined) {
    const date = new Date(end);
    // Not a moment: show what was given rather than drop the sentence.
    formatted = Number.isNaN(date.getTime()) ? end.trim() : dateFormat(language).format(date);
    if (formattedEnds.size >= 1000) formattedEnds.clear();
    formattedEnds.set(key, formatted);
  }
  return formatted;
}

function dateFormat(language: Language): Intl.DateTimeFormat {
  let format = dateFormats.get(language);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(localeOf(language), {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    dateFormats.set(language, format);
  }
  return format;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Params come back from JSON in the outbox: read them without trusting their shape. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** A value people typed, on one line (a name stored before the rules, or a sender name from MAIL_FROM). */
function field(value: unknown, key: string): string {
  return isObject(value) ? asOneLine(asText(value[key])) : '';
}

/** The values people typed; link, end and minutes are ours. */
const TYPED = [
  'firstname',
  'lastname',
  'title',
  'email',
  'campaignname',
  'variantname',
  'sender',
  'inviter',
  'subjectname',
] as const satisfies readonly (keyof TemplateValues)[];

/** The values of subjects and text parts: typed ones isolated (FSI ... PDI) when they need it. */
function textValues(values: TemplateValues): TemplateValues {
  const out: Record<string, unknown> = { ...values };
  for (const key of TYPED) out[key] = isolate(values[key]);
  return out as unknown as TemplateValues;
}

/** The values of HTML parts: typed ones in a `<bdi>` when they need it (escaped either way). */
function htmlValues(values: TemplateValues): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const key of TYPED) out[key] = htmlIsolated(values[key]);
  return out;
}

function fullName(person: unknown): string {
  return [field(person, 'firstname').trim(), field(person, 'lastname').trim()]
    .filter((part) => part !== '')
    .join(' ');
}

/** A subject is one header line. */
function oneLine(value: string): string {
  return value.replace(/[ \t]*[\r\n\u2028\u2029\u0085]+[ \t]*/g, ' ').trim();
}

// Optional sentences and blocks may leave blank runs or trailing blanks behind; most mails have none,
// so test before paying for the replacements.
const UNTIDY = /[ \t]\n|\r|\n\n\n/;

/** Lines without trailing blanks, one blank line at most between paragraphs. */
function tidyText(value: string): string {
  if (!UNTIDY.test(value)) return value.trim();
  return value
    .replace(/[ \t]*(?:\r\n?|\n)/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
