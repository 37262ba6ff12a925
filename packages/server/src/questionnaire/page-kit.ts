import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { renderPage } from '../pages/render.js';
import { type PageStrings, stringsFor } from '../pages/strings.js';
import { parseDate } from '../util/dates.js';
import type { Language } from '../variants/variant.types.js';
import type { Lookup, Participation } from './questionnaire.service.js';

/** The page language a browser asks for (`Accept-Language`), among Assay's four; English otherwise. */
export function acceptedLanguage(header: string | undefined): Language {
  const ranked = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.find((param) => param.trim().startsWith('q='));
      return { tag, q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('nl')) return 'nlNL';
    if (tag.startsWith('es')) return 'esES';
    if (tag.startsWith('fr')) return 'frFR';
    if (tag.startsWith('en')) return 'enUS';
  }
  return 'enUS';
}

/** The path under which the participant pages live: the questionnaire URL's own path, if any. */
export function questionnairePrefix(questionnaireUrl: string): string {
  return new URL(questionnaireUrl).pathname.replace(/\/+$/, '');
}

export type PageModel = Record<string, unknown> & { t: PageStrings; title: string };

/** What every participant page route uses: paths, rendering, the layout's fields, dates. */
export function pageKit(deps: AppContext) {
  const prefix = questionnairePrefix(deps.config.questionnaireUrl);
  const assets = `${prefix}/assets`;
  const secure = deps.config.questionnaireUrl.startsWith('https:');
  const q = (token: string, rest = '') => `${prefix}/q/${token}${rest}`;

  function page(reply: FastifyReply, status: number, template: string, model: PageModel) {
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(renderPage(template, model, assets));
  }

  /** The layout fields of a participation's pages. */
  function chrome(participation: Pick<Participation, 'campaign' | 'variant' | 'language'>) {
    const { campaign, variant, language } = participation;
    const texts = variant.texts[language] ?? {};
    return { t: stringsFor(language), serviceName: campaign.name || texts['variant.name'] || variant.alias };
  }

  function message(
    reply: FastifyReply,
    status: number,
    base: { t: PageStrings; serviceName?: string },
    heading: string,
    paragraphs: string[],
    link?: { href: string; text: string },
  ) {
    return page(reply, status, 'message', {
      ...base,
      title: heading,
      heading,
      paragraphs,
      ...(link ? { link } : {}),
    });
  }

  /** The page of a link that opens nothing: in its campaign's language, else the browser's. */
  function clearPage(
    request: FastifyRequest,
    reply: FastifyReply,
    found: Exclude<Lookup, { kind: 'found' }>,
  ) {
    const { kind } = found;
    const t = stringsFor(
      ('language' in found ? found.language : undefined) ??
        acceptedLanguage(request.headers['accept-language']),
    );
    if (kind === 'reset') return message(reply, 410, { t }, t.resetTitle, [t.resetBody]);
    if (kind === 'removed') return message(reply, 410, { t }, t.removedTitle, [t.removedBody]);
    return message(reply, 404, { t }, t.unknownTitle, [t.unknownBody]);
  }

  const longDate = (text: string, t: PageStrings) => {
    const date = parseDate(text);
    if (!date) return text;
    return `${new Intl.DateTimeFormat(t.locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
  };

  return { prefix, assets, secure, q, page, chrome, message, clearPage, longDate };
}

export type PageKit = ReturnType<typeof pageKit>;
