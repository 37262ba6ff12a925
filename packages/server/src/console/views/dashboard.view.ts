import type { CampaignListItem } from '@assay/schema';
import { fill } from '../../pages/strings.js';
import type { Variant } from '../../variants/variant.types.js';
import { consoleDate, consoleNumber } from '../format.js';
import type { ConsoleStrings } from '../strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** The dashboard's filters, as the links name them. */
export const DASHBOARD_FILTERS = ['all', 'active', 'upcoming', 'ended'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];
export const DASHBOARD_PAGE_SIZE = 50;

export const dashboardFilterOf = (value: unknown): DashboardFilter =>
  (DASHBOARD_FILTERS as readonly unknown[]).includes(value) ? (value as DashboardFilter) : 'all';

/** The filter a campaign answers to: the API's `inactive` is a campaign that has not started yet. */
const filterOf = (status: CampaignListItem['status']): Exclude<DashboardFilter, 'all'> =>
  status === 'inactive' ? 'upcoming' : status;

const statusText = (c: ConsoleStrings, filter: Exclude<DashboardFilter, 'all'>) =>
  filter === 'active' ? c.statusActive : filter === 'upcoming' ? c.statusUpcoming : c.statusEnded;

/** The progress of a campaign: figures, the bar's segments and the text equivalent (the page and progress.json). */
export function campaignProgress(viewer: Viewer, counts: CampaignListItem['memberstatuscount']) {
  const c = chrome(viewer).c;
  const number = (n: number) => consoleNumber(viewer.language, n);
  const total = counts.new + counts.invited + counts.started + counts.completed;
  return {
    total,
    figures: [
      { key: 'new', label: c.countNew, value: number(counts.new) },
      { key: 'invited', label: c.countInvited, value: number(counts.invited) },
      { key: 'started', label: c.countStarted, value: number(counts.started) },
      { key: 'completed', label: c.countCompleted, value: number(counts.completed) },
    ],
    bar: progressSegments(counts, total),
    text:
      total > 0
        ? fill(c.progressText, {
            completed: number(counts.completed),
            total: number(total),
            started: number(counts.started),
            invited: number(counts.invited),
            new: number(counts.new),
          })
        : c.noMembers,
  };
}

export interface DashboardInput {
  readonly campaigns: readonly CampaignListItem[];
  readonly failedMails: ReadonlyMap<string, number>;
  readonly variant: (alias: string) => Variant | undefined;
  readonly filter: DashboardFilter;
  readonly page: number;
}

/** The name a variant gives itself in a language, else its alias. */
export function variantName(variant: Variant | undefined, alias: string, language: string): string {
  const texts = variant?.texts[language as keyof Variant['texts']] ?? variant?.texts[variant.defaultLanguage];
  return texts?.['variant.name'] ?? alias;
}

/**
 * The progress bar's segments, as percentages of the campaign's members: completed, then started,
 * then invited (the rest of the track is "not invited"). Drawn as SVG rectangles: widths are
 * attributes, so the page needs no inline style (the CSP allows none).
 */
export function progressSegments(counts: CampaignListItem['memberstatuscount'], total: number) {
  const pct = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 1000) / 10);
  let x = 0;
  const segments: { kind: string; x: number; width: number }[] = [];
  for (const kind of ['completed', 'started', 'invited'] as const) {
    const width = pct(counts[kind]);
    if (width > 0) segments.push({ kind, x, width });
    x = Math.round((x + width) * 10) / 10;
  }
  return segments;
}

/**
 * The campaigns, newest first, with their progress and failed mails; filters as links, paged.
 * With no campaign at all: the first-run page that says what to do.
 */
export function dashboardView(viewer: Viewer, input: DashboardInput): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const { c } = base;
  const language = viewer.language;
  const all = [...input.campaigns].sort((a, b) =>
    a.created === b.created ? (a.campaignid < b.campaignid ? 1 : -1) : a.created < b.created ? 1 : -1,
  );
  if (all.length === 0) {
    return { template: 'console/first-run', model: { ...base, title: c.noCampaignsTitle } };
  }
  const matching = input.filter === 'all' ? all : all.filter((row) => filterOf(row.status) === input.filter);
  const pages = Math.max(1, Math.ceil(matching.length / DASHBOARD_PAGE_SIZE));
  const page = Math.min(Math.max(1, input.page), pages);
  const shown = matching.slice((page - 1) * DASHBOARD_PAGE_SIZE, page * DASHBOARD_PAGE_SIZE);
  const href = (filter: DashboardFilter, to = 1) => {
    const query = new URLSearchParams();
    if (filter !== 'all') query.set('status', filter);
    if (to > 1) query.set('page', String(to));
    const text = query.toString();
    return text ? `/console?${text}` : '/console';
  };
  const labels: Record<DashboardFilter, string> = {
    all: c.filterAll,
    active: c.filterActive,
    upcoming: c.filterUpcoming,
    ended: c.filterEnded,
  };
  const rows = shown.map((row) => {
    const progress = campaignProgress(viewer, row.memberstatuscount);
    const filter = filterOf(row.status);
    const failed = input.failedMails.get(row.campaignid) ?? 0;
    const number = (n: number) => consoleNumber(language, n);
    return {
      href: `/console/campaigns/${row.campaignid}`,
      name: row.name || row.alias,
      status: statusText(c, filter),
      statusClass: `tag--${filter}`,
      variant: variantName(input.variant(row.variant), row.variant, language),
      language: c.languageNames[row.language as keyof ConsoleStrings['languageNames']] ?? row.language,
      dates: row.end
        ? fill(c.dateRange, { start: consoleDate(language, row.start), end: consoleDate(language, row.end) })
        : fill(c.dateFrom, { start: consoleDate(language, row.start) }),
      total: progress.total,
      counts: progress.figures,
      bar: progress.total > 0 ? progress.bar : undefined,
      progressText: progress.text,
      failed:
        failed > 0
          ? {
              text: failed === 1 ? c.failedMailsOne : fill(c.failedMails, { count: number(failed) }),
              href: `/console/campaigns/${row.campaignid}#mail`,
            }
          : undefined,
    };
  });
  return {
    template: 'console/dashboard',
    model: {
      ...base,
      title: c.dashboardTitle,
      filters: DASHBOARD_FILTERS.map((filter) => ({
        href: href(filter),
        text: labels[filter],
        current: filter === input.filter,
      })),
      rows,
      empty: rows.length === 0 ? c.noMatch : undefined,
      pagination:
        pages > 1
          ? {
              previous: page > 1 ? href(input.filter, page - 1) : undefined,
              next: page < pages ? href(input.filter, page + 1) : undefined,
              text: fill(c.pageOf, { page, pages }),
            }
          : undefined,
    },
  };
}
