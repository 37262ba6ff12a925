import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { listCampaigns } from '../campaigns/campaigns.service.js';
import type { AppContext } from '../context.js';
import { listGroups } from '../groups/groups.service.js';
import { formValues } from '../http/form-body.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { fill } from '../pages/strings.js';
import { chosenReports } from '../reports/group.service.js';
import * as reports from '../reports/reports.service.js';
import { consoleActorOf, refusalOf, showConsole, viewerOf } from './console-kit.js';
import {
  GROUP_REPORT_KINDS,
  GROUP_REPORT_SOURCES,
  type GroupReportChoice,
  type GroupReportKind,
  type GroupReportSource,
  loadChoice,
  MAX_NAME,
  makeOnce,
  planOf,
  saveChoice,
  selectionOf,
} from './group-report.service.js';
import { groupReportStrings } from './group-report-strings.js';
import { consoleMessage } from './views/console-view.js';
import {
  type GroupReportField,
  type GroupReportForm,
  groupReportCheckView,
  groupReportFormView,
  groupReportPickView,
} from './views/group-report.view.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const PICK_PAGE = 50;

/**
 * "Make a group report": a form (type, source, questionnaire, language, name), for hand-picked
 * reports a searchable list, then a check page that runs POST /reports's own checks writing
 * nothing (`planGroupReport`): the reports it would use, the anonymity minimum, a 360's rater groups
 * left out; the free-text answers to leave out with a reason; "Make the report" makes it once.
 */
export async function groupReportPages(app: ApiInstance, deps: AppContext) {
  const { db, clock } = deps;
  const sessionOf = (request: FastifyRequest) => {
    const session = request.operator?.session;
    if (!session) throw new Error('console: no session');
    return session;
  };
  const caller = (request: FastifyRequest) => ({ userId: request.operator?.user.id ?? '' });

  const gone = (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = viewerOf(request);
    const g = groupReportStrings(viewer.language);
    return showConsole(
      reply,
      404,
      consoleMessage(viewer, g.draftGoneTitle, [g.draftGoneBody], {
        href: '/console/reports/new',
        text: g.make,
      }),
    );
  };

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    form: GroupReportForm,
    errors?: Partial<Record<GroupReportField, string>>,
  ) => {
    const [campaigns, groups] = await Promise.all([
      listCampaigns(deps, caller(request)),
      listGroups(db, caller(request)),
    ]);
    const view = groupReportFormView(viewerOf(request), {
      form,
      campaigns,
      groups,
      variants: deps.variants.list(),
      ...(errors ? { errors } : {}),
    });
    return showConsole(reply, status, view);
  };

  const showCheck = async (
    request: FastifyRequest,
    reply: FastifyReply,
    choice: GroupReportChoice,
    made?: { ticked: ReadonlySet<string>; reasons: ReadonlyMap<string, string>; error: string },
  ) => {
    const selection = await selectionOf(deps, caller(request), choice);
    let plan: Awaited<ReturnType<typeof planOf>> | { refused: string };
    try {
      plan = await planOf(deps, choice, selection);
    } catch (error) {
      plan = { refused: refusalOf(request, error) };
    }
    const ok = !('refused' in plan) && selection.problem === undefined;
    const ids = selection.master ? [selection.master, ...selection.ids] : [...selection.ids];
    const verbatims = ok ? await reports.verbatims(deps, ids) : [];
    let subject: string | undefined;
    if (ok && selection.master) {
      const [row] = await chosenReports(deps, [selection.master]);
      subject = [row?.firstname, row?.lastname].filter(Boolean).join(' ') || selection.master;
    }
    const subjects = selection.subjects.length > 0 ? await chosenReports(deps, selection.subjects) : [];
    const view = groupReportCheckView(viewerOf(request), {
      subjects,
      choice,
      selection,
      variant: deps.variants.get(selection.variant),
      plan,
      ...(subject === undefined ? {} : { subject }),
      verbatims,
      ...(made ?? {}),
    });
    return showConsole(reply, made ? 400 : 200, view);
  };

  app.get(
    '/reports/new',
    {
      schema: {
        querystring: Type.Object({
          campaign: Type.Optional(Type.String({ maxLength: 40 })),
          group: Type.Optional(Type.String({ maxLength: 40 })),
        }),
      },
    },
    async (request, reply) => {
      const { campaign, group } = request.query;
      // A link from a campaign's or a group's page shows the form for it; otherwise the draft. The
      // draft is replaced when the form is sent, never by opening the page (a GET changes nothing).
      if (campaign || group) {
        const form: GroupReportForm = campaign
          ? { source: 'campaign', campaign }
          : { source: 'group', group };
        return showForm(request, reply, 200, form);
      }
      const choice = await loadChoice(db, sessionOf(request));
      return showForm(request, reply, 200, choice ?? {});
    },
  );

  app.post('/reports/new', async (request, reply) => {
    const fields = fieldsOf(request.body);
    const form = {
      kind: text(fields.kind),
      source: text(fields.source),
      campaign: text(fields.campaign),
      group: text(fields.group),
      variant: text(fields.variant),
      language: text(fields.language),
      name: text(fields.name),
    };
    const g = groupReportStrings(viewerOf(request).language);
    const errors: Partial<Record<GroupReportField, string>> = {};
    if (!(GROUP_REPORT_KINDS as readonly string[]).includes(form.kind)) errors.kind = g.typeRequired;
    if (!(GROUP_REPORT_SOURCES as readonly string[]).includes(form.source)) errors.source = g.sourceRequired;
    if (form.source === 'campaign' && form.campaign === '') errors.campaign = g.campaignRequired;
    if (form.source === 'group' && form.group === '') errors.group = g.groupRequired;
    if (form.source !== 'campaign' && form.source !== '' && form.variant === '')
      errors.variant = g.variantRequired;
    if ([...form.name].length > MAX_NAME) errors.name = fill(g.nameTooLong, { max: MAX_NAME });
    if (Object.keys(errors).length > 0) return showForm(request, reply, 400, form, errors);
    const session = sessionOf(request);
    const before = await loadChoice(db, session);
    const choice: GroupReportChoice = {
      ...form,
      kind: form.kind as GroupReportKind,
      source: form.source as GroupReportSource,
      // Hand-picked reports stay chosen while the questionnaire stays the same.
      picked: before && before.variant === form.variant ? before.picked : [],
      subject: '',
    };
    await saveChoice(db, session, choice, clock());
    return reply.redirect(`/console/reports/new/${choice.source === 'reports' ? 'pick' : 'check'}`, 303);
  });

  const pickPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    choice: GroupReportChoice,
    q: string,
    error?: string,
  ) => {
    const page = await reports.reportListPage(deps, {
      variant: choice.variant,
      type: 'personal',
      name: q.trim() || undefined,
    });
    const view = groupReportPickView(viewerOf(request), {
      variant: deps.variants.get(choice.variant),
      variantAlias: choice.variant,
      q,
      chosen: await chosenReports(deps, choice.picked),
      found: page.rows.slice(0, PICK_PAGE),
      more: page.next !== undefined,
      ...(error ? { error } : {}),
    });
    return showConsole(reply, error ? 400 : 200, view);
  };

  app.get(
    '/reports/new/pick',
    { schema: { querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 100 })) }) } },
    async (request, reply) => {
      const choice = await loadChoice(db, sessionOf(request));
      if (choice?.source !== 'reports') return gone(request, reply);
      return pickPage(request, reply, choice, request.query.q ?? '');
    },
  );

  app.post('/reports/new/pick', async (request, reply) => {
    const session = sessionOf(request);
    const choice = await loadChoice(db, session);
    if (choice?.source !== 'reports') return gone(request, reply);
    const picked = [
      ...new Set(formValues(request.body, 'report').filter((id) => /^[0-9A-Za-z]{1,40}$/.test(id))),
    ];
    const q = text(fieldsOf(request.body).q).slice(0, 100);
    const g = groupReportStrings(viewerOf(request).language);
    if (picked.length === 0) return pickPage(request, reply, { ...choice, picked: [] }, q, g.pickRequired);
    await saveChoice(db, session, { ...choice, picked }, clock());
    return reply.redirect('/console/reports/new/check', 303);
  });

  app.get('/reports/new/check', async (request, reply) => {
    const choice = await loadChoice(db, sessionOf(request));
    if (!choice) return gone(request, reply);
    return showCheck(request, reply, choice);
  });

  // A 360's subject, when the reports hold several people's own reports.
  app.post('/reports/new/subject', async (request, reply) => {
    const session = sessionOf(request);
    const choice = await loadChoice(db, session);
    if (!choice) return gone(request, reply);
    const subject = text(fieldsOf(request.body).subject).slice(0, 40);
    await saveChoice(db, session, { ...choice, subject }, clock());
    return reply.redirect('/console/reports/new/check', 303);
  });

  app.post('/reports/new/make', async (request, reply) => {
    const session = sessionOf(request);
    const fields = fieldsOf(request.body);
    const excluded = [...new Set(formValues(request.body, 'leave'))];
    const reasons = new Map<string, string>();
    for (const entry of excluded) reasons.set(entry, text(fields[`reason:${entry}`]));
    let outcome: Awaited<ReturnType<typeof makeOnce>>;
    try {
      outcome = await makeOnce(deps, session, caller(request), excluded, reasons, consoleActorOf(request));
    } catch (error) {
      const refusal = refusalOf(request, error);
      const choice = await loadChoice(db, session);
      if (!choice) return gone(request, reply);
      // Every reason as typed comes back, ticked or not.
      const typed = new Map<string, string>();
      for (const [key, value] of Object.entries(fields)) {
        if (key.startsWith('reason:') && typeof value === 'string') typed.set(key.slice(7), value);
      }
      return showCheck(request, reply, choice, {
        ticked: new Set(excluded),
        reasons: typed,
        error: refusal,
      });
    }
    if ('gone' in outcome) return gone(request, reply);
    const id = 'made' in outcome ? outcome.made.reportid : outcome.already;
    return reply.redirect(`/console/reports/${encodeURIComponent(id)}?done=made`, 303);
  });
}
