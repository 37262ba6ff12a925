import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import { renderPage } from '../pages/render.js';
import type { Language } from '../variants/variant.types.js';
import { questionnairePrefix } from './links.js';
import type { Lookup } from './questionnaire.service.js';
import type { PageView } from './views/page-view.js';
import { pagePaths } from './views/page-view.js';
import { clearView } from './views/participation.view.js';

export { questionnairePrefix };

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

/**
 * A posted form as the pages read it: the scope's parser makes an object without a prototype of
 * a URL-encoded body; anything else (no body, another type) reads as an empty form.
 */
export function formOf(body: unknown): Readonly<Record<string, unknown>> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** What every participant page route uses: paths, sending a view, whether the cookie is Secure. */
export function pageKit(config: Pick<Config, 'questionnaireUrl'>) {
  const prefix = questionnairePrefix(config.questionnaireUrl);
  const assets = `${prefix}/assets`;
  const paths = pagePaths(prefix);

  /** Sends a view as an HTML page with the status given. */
  function show(reply: FastifyReply, status: number, view: PageView) {
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(renderPage(view.template, view.model, assets));
  }

  /** The page of a link that opens nothing, in its campaign's language, else the browser's. */
  function showClear(
    reply: FastifyReply,
    found: Exclude<Lookup, { kind: 'found' }>,
    acceptLanguage?: string,
  ) {
    const { status, view } = clearView(found, acceptedLanguage(acceptLanguage));
    return show(reply, status, view);
  }

  return {
    prefix,
    assets,
    paths,
    secure: config.questionnaireUrl.startsWith('https:'),
    show,
    showClear,
  };
}

export type PageKit = ReturnType<typeof pageKit>;
