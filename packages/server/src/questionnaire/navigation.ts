import type { Variant } from '../variants/variant.types.js';
import { firstIncompletePage, type PageSubmission } from './questionnaire.service.js';
import type { PagePaths } from './views/page-view.js';

/** The page number in a path, 0 when it names no page of the variant. */
export function pageNumber(variant: Variant, text: string): number {
  const n = /^[1-9][0-9]{0,3}$/.test(text) ? Number(text) : 0;
  return n >= 1 && n <= variant.pages.length ? n : 0;
}

/**
 * Where a page saved without a problem leads: "Save and come back later" to the saved page; from
 * the check page back to it when nothing is missing; else the next page, and after the last the
 * first page with a required answer missing, or the check page.
 */
export function nextAfterSave(
  paths: PagePaths,
  token: string,
  variant: Variant,
  number: number,
  submission: Pick<PageSubmission, 'answers'>,
  form: { readonly action?: unknown; readonly return?: unknown },
): string {
  const { q } = paths;
  if (form.action === 'later') return q(token, '/saved');
  const next = firstIncompletePage(variant, submission.answers);
  if (form.return === 'check' && next === 0) return q(token, '/check');
  if (number < variant.pages.length) return q(token, `/page/${number + 1}`);
  return q(token, next > 0 ? `/page/${next}` : '/check');
}
