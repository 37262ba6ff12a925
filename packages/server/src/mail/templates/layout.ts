import type { MailStage } from '../../variants/variant.types.js';

/**
 * The shape every mail shares. Styles are inline (many clients drop <style>); only the button has
 * colours of its own (white on blue, readable in light and dark mode), everything else inherits the
 * client's colours so dark mode stays readable. No images, fonts or links besides the mail's link.
 */

/** A paragraph of a standard mail: Handlebars source; a newline becomes a line break. */
export type Block = string | LinkBlock;

/** The mail's link: a button in HTML with the raw URL as fallback; `lead` and the URL in plain text. */
export interface LinkBlock {
  readonly button: string;
  readonly lead: string;
  readonly fallback: string;
}

export interface StageSource {
  readonly subject: string;
  readonly blocks: readonly Block[];
  /** Why the recipient gets this mail: the footer line under the sender. */
  readonly footer: string;
}

export interface LanguageSource {
  /** BCP 47 tag: the HTML `lang` and the locale of dates. */
  readonly locale: string;
  readonly stages: Readonly<Record<MailStage, StageSource>>;
}

/** The Handlebars sources of one standard mail. */
export interface StandardSources {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** The HTML footer alone, reused around a variant's own mail texts. */
  readonly footer: string;
}

const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const PARAGRAPH = 'margin:0 0 16px 0;';
const BLUE = '#1d4ed8';

export function linkBlock(button: string, lead: string, fallback: string): LinkBlock {
  return { button, lead, fallback };
}

/** `href` and `text` must already be escaped (or be Handlebars expressions that escape). */
export function anchor(href: string, text: string): string {
  return `<a href="${href}" style="word-break:break-all;">${text}</a>`;
}

export function paragraph(content: string): string {
  return `<p style="${PARAGRAPH}">${content}</p>`;
}

function buttonHtml(block: LinkBlock): string {
  return [
    '{{#if link}}',
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px 0;border-collapse:separate;">`,
    `<tr><td bgcolor="${BLUE}" style="border-radius:6px;background-color:${BLUE};">`,
    `<a href="{{link}}" style="display:inline-block;padding:12px 24px;border-radius:6px;background-color:${BLUE};color:#ffffff;${FONT}font-size:16px;font-weight:bold;text-decoration:none;">${block.button}</a>`,
    '</td></tr>',
    '</table>',
    `<p style="${PARAGRAPH}font-size:14px;">${block.fallback}<br>${anchor('{{link}}', '{{link}}')}</p>`,
    '{{/if}}',
  ].join('\n');
}

function blockHtml(block: Block): string {
  return typeof block === 'string' ? paragraph(block.replaceAll('\n', '<br>\n')) : buttonHtml(block);
}

function blockText(block: Block): string {
  return typeof block === 'string' ? block : `{{#if link}}${block.lead}\n{{link}}{{/if}}`;
}

/** The footer: the sender, then why the recipient gets the mail. */
export function footerHtml(reason: string): string {
  return `<p style="margin:0 0 4px 0;"><strong>{{sender}}</strong></p>\n<p style="margin:0;">${reason}</p>`;
}

/** The whole HTML document around `body` and `footer` (HTML, or Handlebars source that yields HTML). */
export function htmlDocument(locale: string, title: string, body: string, footer: string): string {
  const table = 'role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"';
  return `<!DOCTYPE html>
<html lang="${locale}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${title}</title>
</head>
<body style="margin:0;padding:0;">
<table ${table} style="border-collapse:collapse;">
<tr><td align="center" style="padding:24px 16px;">
<table ${table} style="max-width:600px;border-collapse:collapse;">
<tr><td style="${FONT}font-size:16px;line-height:1.5;text-align:left;padding-bottom:8px;">
${body}
</td></tr>
<tr><td style="${FONT}font-size:13px;line-height:1.5;text-align:left;padding-top:16px;border-top:1px solid #9ca3af;">
${footer}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** The subject, HTML and text sources of one standard mail, from its paragraphs. */
export function standardSources(locale: string, stage: StageSource): StandardSources {
  const footer = footerHtml(stage.footer);
  return {
    subject: stage.subject,
    html: htmlDocument(locale, '{{subject}}', stage.blocks.map(blockHtml).join('\n'), footer),
    text: `${stage.blocks.map(blockText).join('\n\n')}\n\n${stage.footer}`,
    footer,
  };
}
