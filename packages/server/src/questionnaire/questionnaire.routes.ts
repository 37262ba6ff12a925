import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { participantActor } from '../audit/actor.js';
import type { AppContext } from '../context.js';
import { sendPdf } from '../http/pdf-reply.js';
import { STYLESHEET, STYLESHEET_VERSION } from '../pages/render.js';
import { checkCsrf, csrfToken } from '../pages/security.js';
import { renderReport } from '../reports/report-pdf.js';
import { markOpened } from '../reports/reports.service.js';
import { nextAfterSave, pageNumber } from './navigation.js';
import { formOf, pageKit } from './page-kit.js';
import {
  complete,
  firstIncompletePage,
  lookup,
  markStarted,
  type Participation,
  reportOfToken,
  saveAnswers,
} from './questionnaire.service.js';
import { chromeOf, expiredView } from './views/page-view.js';
import {
  doneView,
  introView,
  reportNotReadyView,
  reportView,
  savedView,
  stateGate,
} from './views/participation.view.js';
import { checkView, questionPageView } from './views/question-page.view.js';

const TokenParams = Type.Object({ token: Type.String() });
const PageParams = Type.Object({ token: Type.String(), page: Type.String() });
// What the pages read of a query or a form is checked where it is read: a repeated or unknown
// field is ignored there, never refused here (a page, not an API).
const PageQuery = Type.Object({ return: Type.Optional(Type.Unknown()) });
const Form = Type.Unknown();

/** The questionnaire at /q/<token>, the personal report at /r/<token> and the pages' stylesheet. */
export const questionnaireRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, deps) => {
  const kit = pageKit(deps.config);
  const { prefix, secure, paths, show } = kit;
  const { q } = paths;

  /** The participation of the link, or undefined once the page that says why it opens nothing is sent. */
  async function open(request: FastifyRequest, reply: FastifyReply, token: string) {
    const found = await lookup(deps, token);
    if (found.kind === 'found') return found.participation;
    kit.showClear(reply, found, request.headers['accept-language']);
    return undefined;
  }

  /** The answer for a participation that cannot take answers now, or undefined when it can. */
  function gate(reply: FastifyReply, participation: Participation) {
    const outcome = stateGate(participation, paths);
    if (!outcome) return undefined;
    if ('redirect' in outcome) return reply.code(303).redirect(outcome.redirect);
    return show(reply, outcome.status, outcome.view);
  }

  const see = (reply: FastifyReply, to: string) => reply.code(303).redirect(to);

  /** A form without this browser's form token: nothing is saved, and the page says so. */
  async function refuseForm(request: FastifyRequest, reply: FastifyReply, token: string, rest: string) {
    const participation = await open(request, reply, token);
    if (!participation) return reply;
    return show(reply, 403, expiredView(chromeOf(participation), q(participation.member.token, rest)));
  }

  // The one stylesheet, cached for a year: its address changes with its content.
  app.get(`${kit.assets}/assay.css`, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', `"${STYLESHEET_VERSION}"`)
      .type('text/css; charset=utf-8')
      .send(STYLESHEET),
  );

  /** Where the participation goes on: the first page with a required answer missing, else the check page. */
  const resume = (participation: Participation) => {
    const incomplete = firstIncompletePage(participation.variant, participation.answers);
    return q(participation.member.token, incomplete > 0 ? `/page/${incomplete}` : '/check');
  };

  // Opening the link changes nothing, as every GET here (a mail scanner fetches every link of a
  // message): the start page's button starts.
  app.get(`${prefix}/q/:token`, { schema: { params: TokenParams } }, async (request, reply) => {
    const participation = await open(request, reply, request.params.token);
    if (!participation) return reply;
    const closed = gate(reply, participation);
    if (closed) return closed;
    // The link resumes at the first page with a required answer missing, its answers filled in.
    if (Object.keys(participation.answers).length > 0) return see(reply, resume(participation));
    return show(reply, 200, introView(participation, paths, csrfToken(request, reply, secure)));
  });

  // "Start now": the participant's first POST starts them (or their first page saved, should they
  // go to a page's address without it), then the first page to answer.
  app.post(`${prefix}/q/:token`, { schema: { params: TokenParams, body: Form } }, async (request, reply) => {
    const { token } = request.params;
    if (!checkCsrf(request, formOf(request.body).csrf, secure)) return refuseForm(request, reply, token, '');
    const participation = await open(request, reply, token);
    if (!participation) return reply;
    const closed = gate(reply, participation);
    if (closed) return closed;
    await markStarted(deps, participation, participantActor(participation.member.member_id, request.ip));
    return see(reply, resume(participation));
  });

  app.get(
    `${prefix}/q/:token/page/:page`,
    { schema: { params: PageParams, querystring: PageQuery } },
    async (request, reply) => {
      const participation = await open(request, reply, request.params.token);
      if (!participation) return reply;
      const closed = gate(reply, participation);
      if (closed) return closed;
      const number = pageNumber(participation.variant, request.params.page);
      if (number === 0) return see(reply, q(participation.member.token));
      const csrf = csrfToken(request, reply, secure);
      const fromCheck = request.query.return === 'check';
      return show(reply, 200, questionPageView(participation, number, paths, csrf, undefined, fromCheck));
    },
  );

  app.post(
    `${prefix}/q/:token/page/:page`,
    { schema: { params: PageParams, body: Form } },
    async (request, reply) => {
      const { token, page } = request.params;
      const form = formOf(request.body);
      if (!checkCsrf(request, form.csrf, secure)) return refuseForm(request, reply, token, `/page/${page}`);
      const later = form.action === 'later';
      const outcome = await saveAnswers(
        deps,
        token,
        (variant) => pageNumber(variant, page),
        form,
        !later,
        request.ip,
      );
      if (outcome.kind === 'saved') {
        const number = pageNumber(outcome.variant, page);
        return see(
          reply,
          nextAfterSave(paths, outcome.token, outcome.variant, number, outcome.submission, form),
        );
      }
      const { found, submission } = outcome;
      if (found.kind !== 'found') return kit.showClear(reply, found, request.headers['accept-language']);
      const { participation } = found;
      const closed = gate(reply, participation);
      if (closed) return closed;
      const { member, variant } = participation;
      const number = pageNumber(variant, page);
      if (number === 0 || !submission) return see(reply, q(member.token));
      if (later || submission.problems.length === 0)
        return see(reply, nextAfterSave(paths, member.token, variant, number, submission, form));
      // The page again with the answers as sent, the problems explained.
      const shown = { ...participation, answers: submission.answers };
      const csrf = csrfToken(request, reply, secure);
      const fromCheck = form.return === 'check';
      return show(reply, 200, questionPageView(shown, number, paths, csrf, submission, fromCheck));
    },
  );

  app.get(`${prefix}/q/:token/saved`, { schema: { params: TokenParams } }, async (request, reply) => {
    const participation = await open(request, reply, request.params.token);
    if (!participation) return reply;
    return gate(reply, participation) ?? show(reply, 200, savedView(participation, paths));
  });

  app.get(`${prefix}/q/:token/check`, { schema: { params: TokenParams } }, async (request, reply) => {
    const participation = await open(request, reply, request.params.token);
    if (!participation) return reply;
    const closed = gate(reply, participation);
    if (closed) return closed;
    const incomplete = firstIncompletePage(participation.variant, participation.answers);
    if (incomplete > 0) return see(reply, q(participation.member.token, `/page/${incomplete}`));
    return show(reply, 200, checkView(participation, paths, csrfToken(request, reply, secure)));
  });

  app.post(
    `${prefix}/q/:token/check`,
    { schema: { params: TokenParams, body: Form } },
    async (request, reply) => {
      const participation = await open(request, reply, request.params.token);
      if (!participation) return reply;
      const { member } = participation;
      if (member.status === 'completed') return see(reply, q(member.token, '/done'));
      if (!checkCsrf(request, formOf(request.body).csrf, secure))
        return show(reply, 403, expiredView(chromeOf(participation), q(member.token, '/check')));
      const outcome = await complete(deps, member.token, participantActor(member.member_id, request.ip));
      if (outcome.kind === 'incomplete') return see(reply, q(member.token, `/page/${outcome.page}`));
      return see(reply, q(member.token, outcome.kind === 'completed' ? '/done' : ''));
    },
  );

  app.get(`${prefix}/q/:token/done`, { schema: { params: TokenParams } }, async (request, reply) => {
    const participation = await open(request, reply, request.params.token);
    if (!participation) return reply;
    if (participation.member.status !== 'completed') return see(reply, q(participation.member.token));
    return show(reply, 200, doneView(participation, paths, csrfToken(request, reply, secure)));
  });

  /** The page of a report link before its report exists (or of a link that opens nothing). */
  async function noReport(request: FastifyRequest, reply: FastifyReply, token: string) {
    const participation = await open(request, reply, token);
    if (!participation) return reply;
    return show(reply, 404, reportNotReadyView(participation, paths));
  }

  // The report link is the PDF itself (inline, with a file name), as DESIGN.md has it, and records
  // nothing: a mail scanner fetches it on delivery. Opening is recorded (`lastopened`) by the
  // button of the confirmation page, a POST, which then leads here.
  app.get(`${prefix}/r/:token`, { schema: { params: TokenParams } }, async (request, reply) => {
    const { token } = request.params;
    const report = await reportOfToken(deps, token);
    if (!report) return noReport(request, reply, token);
    return sendPdf(reply, await renderReport(deps, report.id));
  });

  // The same PDF under the address the button led to before, for links already followed.
  app.get(`${prefix}/r/:token/pdf`, { schema: { params: TokenParams } }, async (request, reply) => {
    const { token } = request.params;
    const report = await reportOfToken(deps, token);
    if (!report) return noReport(request, reply, token);
    return sendPdf(reply, await renderReport(deps, report.id));
  });

  app.post(`${prefix}/r/:token`, { schema: { params: TokenParams, body: Form } }, async (request, reply) => {
    const { token } = request.params;
    const report = await reportOfToken(deps, token);
    if (!report) return noReport(request, reply, token);
    // A form without this browser's token records nothing: a page with the button again, with a
    // token that works.
    if (!checkCsrf(request, formOf(request.body).csrf, secure))
      return show(reply, 403, reportView(report, token, paths, csrfToken(request, reply, secure)));
    await markOpened(deps, report.id);
    return see(reply, paths.report(token));
  });
};
