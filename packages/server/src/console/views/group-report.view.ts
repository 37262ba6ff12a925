import { fill } from '../../pages/strings.js';
import { MIN_GROUP_RESPONSES } from '../../pdf/feedback-model.js';
import { MAX_REASON } from '../../reports/group.service.js';
import type { ReportListRow } from '../../reports/reports.repository.js';
import type { VerbatimRow } from '../../reports/reports.service.js';
import type { Variant } from '../../variants/variant.types.js';
import { consoleDate } from '../format.js';
import {
  GROUP_REPORT_KINDS,
  GROUP_REPORT_SOURCES,
  type GroupReportChoice,
  type GroupReportPlan,
  type GroupReportSelection,
  MAX_NAME,
} from '../group-report.service.js';
import { type GroupReportStrings, groupReportStrings } from '../group-report-strings.js';
import { CONSOLE_LANGUAGES, consoleStrings } from '../strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';
import { memberName } from './members.view.js';

/** The form's fields that can be wrong, each with the id of the control its message links to. */
export type GroupReportField = 'kind' | 'source' | 'campaign' | 'group' | 'variant' | 'name';
const FIELD_TARGET: Record<GroupReportField, string> = {
  kind: 'kind-group',
  source: 'source-campaign',
  campaign: 'campaign',
  group: 'group',
  variant: 'variant',
  name: 'name',
};

/** The form as the operator filled it (strings as posted, perhaps wrong). */
export type GroupReportForm = { readonly [K in keyof Omit<GroupReportChoice, 'picked'>]?: string };

const variantName = (variant: Variant | undefined, alias: string, viewer: Viewer) =>
  variant?.texts[viewer.language]?.['variant.name'] ??
  variant?.texts[variant.defaultLanguage]?.['variant.name'] ??
  alias;

const subjectOf = (row: { firstname: string | null; lastname: string | null; middlename?: string | null }) =>
  memberName({ ...row, firstname: row.firstname ?? '', lastname: row.lastname ?? '' });

const errorList = (errors: Partial<Record<GroupReportField, string>>) =>
  (Object.entries(errors) as [GroupReportField, string][]).map(([field, text]) => ({
    href: `#${FIELD_TARGET[field]}`,
    text,
  }));

/** Page 1: type, source (campaign, group, hand-picked), questionnaire, language and name. */
export function groupReportFormView(
  viewer: Viewer,
  input: {
    form: GroupReportForm;
    campaigns: readonly { campaignid: string; name: string }[];
    groups: readonly { groupid: string; name: string }[];
    variants: readonly Variant[];
    errors?: Partial<Record<GroupReportField, string>>;
  },
): ConsoleView {
  const g = groupReportStrings(viewer.language);
  const c = consoleStrings(viewer.language);
  const { form } = input;
  const errors = input.errors ?? {};
  const radios = <K extends string>(
    name: string,
    keys: readonly K[],
    words: Record<K, { label: string; hint: string }>,
    chosen?: string,
  ) =>
    keys.map((key) => ({
      id: `${name}-${key}`,
      value: key,
      label: words[key].label,
      hint: words[key].hint,
      hintId: `${name}-${key}-hint`,
      checked: key === chosen,
    }));
  const options = <T>(
    rows: readonly T[],
    value: (row: T) => string,
    text: (row: T) => string,
    chosen?: string,
  ) => rows.map((row) => ({ value: value(row), text: text(row), selected: value(row) === chosen }));
  return {
    template: 'console/group-report-form',
    model: {
      ...chrome(viewer, 'reports'),
      g,
      title: g.title,
      errors: errorList(errors),
      error: errors,
      kinds: radios('kind', GROUP_REPORT_KINDS, g.kinds, form.kind),
      sources: radios('source', GROUP_REPORT_SOURCES, g.sources, form.source),
      campaigns: options(
        input.campaigns,
        (row) => row.campaignid,
        (row) => row.name,
        form.campaign,
      ),
      groups: options(
        input.groups,
        (row) => row.groupid,
        (row) => row.name,
        form.group,
      ),
      variants: options(
        input.variants,
        (variant) => variant.alias,
        (variant) => variantName(variant, variant.alias, viewer),
        form.variant,
      ),
      languages: CONSOLE_LANGUAGES.map((language) => ({
        value: language,
        text: c.languageNames[language],
        selected: language === form.language,
      })),
      name: form.name ?? '',
      maxName: MAX_NAME,
    },
  };
}

/** Page 2 of a hand-picked report: the chosen reports, a search, and the reports found. */
export function groupReportPickView(
  viewer: Viewer,
  input: {
    variant: Variant | undefined;
    variantAlias: string;
    q: string;
    chosen: readonly ReportListRow[];
    found: readonly (ReportListRow & { campaignname: string | null })[];
    more: boolean;
    error?: string;
  },
): ConsoleView {
  const g = groupReportStrings(viewer.language);
  const chosenIds = new Set(input.chosen.map((row) => row.reportid));
  const item = (row: ReportListRow & { campaignname?: string | null }, checked: boolean) => ({
    id: `report-${row.reportid}`,
    value: row.reportid,
    name: subjectOf(row) || row.reportid,
    date: consoleDate(viewer.language, row.date),
    campaign: row.campaignname ?? undefined,
    checked,
  });
  const found = input.found.filter((row) => !chosenIds.has(row.reportid)).map((row) => item(row, false));
  return {
    template: 'console/group-report-pick',
    model: {
      ...chrome(viewer, 'reports'),
      g,
      title: g.pickTitle,
      caption: variantName(input.variant, input.variantAlias, viewer),
      errors: input.error ? [{ href: '#choices', text: input.error }] : undefined,
      error: input.error,
      q: input.q,
      chosen: input.chosen.map((row) => item(row, true)),
      chosenCaption: fill(g.pickedCaption, { count: input.chosen.length }),
      found,
      empty: found.length === 0 && input.chosen.length === 0 ? g.noResults : undefined,
      more: input.more ? fill(g.onlyNewest, { count: input.found.length }) : undefined,
    },
  };
}

/** The check page's verbatims, at most this many (the rest are named by a count). */
export const VERBATIMS_SHOWN = 200;

/**
 * Page 3: what the report would use, by POST /reports's own checks, and the free-text answers to
 * leave out with a reason; "Make the report" when it can be made.
 */
export function groupReportCheckView(
  viewer: Viewer,
  input: {
    choice: GroupReportChoice;
    selection: GroupReportSelection;
    variant: Variant | undefined;
    /** The plan, or the API's message refusing the request. */
    plan: GroupReportPlan | { refused: string };
    subject?: string;
    verbatims: readonly VerbatimRow[];
    ticked?: ReadonlySet<string>;
    reasons?: ReadonlyMap<string, string>;
    /** A refusal of "Make the report" (the API's message). */
    error?: string;
    /** A 360's possible subjects (their self reports), when there are several. */
    subjects?: readonly ReportListRow[];
  },
): ConsoleView {
  const g = groupReportStrings(viewer.language);
  const c = consoleStrings(viewer.language);
  const subjects = (input.subjects ?? []).map((row) => ({
    id: `subject-${row.reportid}`,
    value: row.reportid,
    name: subjectOf(row) || row.reportid,
    date: consoleDate(viewer.language, row.date),
    checked: row.reportid === input.selection.master,
  }));
  const { choice, selection, plan } = input;
  const language = 'refused' in plan ? choice.language : plan.language;
  const source =
    choice.source === 'campaign'
      ? fill(g.sourceCampaign, { name: selection.sourceName })
      : choice.source === 'group'
        ? fill(g.sourceGroup, { name: selection.sourceName })
        : fill(g.sourcePicked, { count: choice.picked.length });
  const change = '/console/reports/new';
  const rows = [
    { key: g.rowType, value: g.kinds[choice.kind].label, href: `${change}#kind-${choice.kind}` },
    {
      key: g.rowSource,
      value: source,
      dir: true,
      href: choice.source === 'reports' ? `${change}/pick` : `${change}#source-${choice.source}`,
    },
    {
      key: g.rowVariant,
      value: variantName(input.variant, selection.variant, viewer),
      href: `${change}#variant`,
    },
    {
      key: g.rowLanguage,
      value:
        language && language in c.languageNames
          ? c.languageNames[language as keyof typeof c.languageNames]
          : g.languageDefault,
      href: `${change}#language`,
    },
    { key: g.rowName, value: choice.name.trim() || g.defaultName, dir: true, href: `${change}#name` },
  ];
  const problem =
    selection.problem === 'unknownSource'
      ? choice.source === 'campaign'
        ? g.unknownCampaign
        : g.unknownGroup
      : selection.problem === 'empty'
        ? fill(g.emptySource, { source })
        : selection.problem === 'noSubject'
          ? g.noSubject360
          : selection.problem === 'severalSubjects'
            ? fill(g.severalSubjects360, { count: selection.selfCount })
            : 'refused' in plan
              ? plan.refused
              : undefined;
  const ok = problem === undefined && !('refused' in plan) ? plan : undefined;
  const anonymous = ok?.anonymous
    ? {
        met: ok.anonymous.met,
        text: fill(ok.anonymous.met ? g.anonMet : g.anonNotMet, {
          minimum: ok.anonymous.minimum,
          count: ok.count,
        }),
      }
    : undefined;
  const raterGroups = ok?.raterGroups?.map((group) => ({
    label: group.label,
    n: group.n,
    state: group.shown
      ? g.shown
      : group.suppressed
        ? fill(g.leftOut, { min: MIN_GROUP_RESPONSES })
        : g.noResponses,
    leftOut: group.suppressed,
  }));
  const leftOutGroups =
    ok?.raterGroups?.filter((group) => group.suppressed).map((group) => group.label) ?? [];
  const canMake = ok !== undefined && (ok.anonymous === undefined || ok.anonymous.met);
  const shown = input.verbatims.slice(0, VERBATIMS_SHOWN);
  const ticked = input.ticked ?? new Set<string>();
  const reasons = input.reasons ?? new Map<string, string>();
  const verbatims = shown.map((row, index) => {
    const entry = `${row.reportid}:${row.code}`;
    const n = index + 1;
    return {
      n,
      entry,
      id: `leave-${n}`,
      reasonId: `reason-${n}`,
      question: row.question,
      answer: row.answer,
      leaveLabel: fill(g.leaveOutLabel, { n }),
      reasonLabel: fill(g.reasonLabel, { n }),
      checked: ticked.has(entry),
      reason: reasons.get(entry) ?? '',
      error: input.error?.endsWith(` ${entry}`) ? input.error : undefined,
    };
  });
  const errorTarget = verbatims.find((row) => row.error)?.reasonId ?? 'make';
  return {
    template: 'console/group-report-check',
    model: {
      ...chrome(viewer, 'reports'),
      g,
      title: g.checkTitle,
      errors: input.error ? [{ href: `#${errorTarget}`, text: input.error }] : undefined,
      pageError: verbatims.some((row) => row.error) ? undefined : input.error,
      rows,
      problem,
      subjects: subjects.length > 0 ? subjects : undefined,
      uses: ok
        ? input.subject !== undefined && ok.master !== null
          ? fill(g.usesSubject, { name: input.subject, count: ok.count })
          : fill(g.uses, { count: ok.count })
        : undefined,
      anonymous,
      raterGroups,
      raterRule: fill(g.raterRule, { min: MIN_GROUP_RESPONSES }),
      leftOutSummary: raterGroups
        ? leftOutGroups.length > 0
          ? fill(g.leftOutSummary, { groups: leftOutGroups.join(', ') })
          : g.nothingLeftOut
        : undefined,
      canMake,
      verbatimsIntro: fill(g.verbatimsIntro, { max: MAX_REASON }),
      verbatims,
      onlyFirst:
        input.verbatims.length > shown.length
          ? fill(g.onlyFirstVerbatims, { count: shown.length, total: input.verbatims.length })
          : undefined,
      maxReason: MAX_REASON,
    },
  };
}

export type { GroupReportStrings };
