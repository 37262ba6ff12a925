import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { DATABASE_RETRY_AFTER, pageStatusOf } from '../http/error-handler.js';
import { STYLESHEET, STYLESHEET_VERSION } from '../pages/render.js';
import { checkCsrf, csrfToken, setPageHeaders } from '../pages/security.js';
import { signupStringsFor } from '../pages/signup-strings.js';
import { fill, stringsFor } from '../pages/strings.js';
import { renderReport } from '../reports/report-pdf.js';
import { sendPdf } from '../reports/reports.routes.js';
import { markOpened } from '../reports/reports.service.js';
import type { Question, Variant } from '../variants/variant.types.js';
import { acceptedLanguage, pageKit } from './page-kit.js';
import {
  type AnswerProblem,
  complete,
  firstIncompletePage,
  lookup,
  markStarted,
  type PageSubmission,
  type Participation,
  reportOfToken,
  saveAnswers,
} from './questionnaire.service.js';
import { signupRoutes } from './signup.routes.js';

type TokenParams = { token: string };
type PageParams = { token: string; page: string };

/** Seconds a participant needs for one item, to say how long the questionnaire takes. */
const SECONDS_PER_ITEM = { likert: 8, choice: 10, text: 60 } as const;

function formForm(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** The participant's side: the questionnaire at /q/<token>, the report at /r/<token>. */
export async function questionnaireRoutes(app: FastifyInstance, deps: AppContext) {
  // Pages for people, not operations of the API: they stay out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  const kit = pageKit(deps);
  const { prefix, secure, q, page, chrome, clearPage, longDate } = kit;

  // Forms post URL-encoded bodies; the parser lives in this scope only. Keys are read into an
  // object without a prototype, so no field name can reach Object.prototype.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 512 * 1024 },
    (_request, body, done) => {
      const form: Record<string, string> = Object.create(null);
      for (const [key, value] of new URLSearchParams(body as string)) form[key] = value;
      done(null, form);
    },
  );
  app.addHook('onRequest', async (_request, reply) => {
    setPageHeaders(reply);
  });
  app.setErrorHandler((error, request, reply) => {
    const t = stringsFor(acceptedLanguage(request.headers['accept-language']));
    const status = pageStatusOf(error);
    const clientError = status !== undefined && status >= 400 && status < 500;
    const reason = error instanceof Error ? error.message : String(error);
    const unavailable = !clientError && isDatabaseUnavailable(error);
    // The visitor's mistake (a body too large, a wrong type) is no fault of ours: one line, no stack,
    // so that nobody can fill the error log from a made-up link.
    if (clientError) request.log.info({ statusCode: status, reason }, 'participant page refused');
    else if (unavailable) request.log.warn({ reason }, 'participant page: database unavailable');
    else request.log.error({ err: error }, 'participant page failed');
    if (unavailable) reply.header('retry-after', DATABASE_RETRY_AFTER);
    return page(reply, clientError ? status : unavailable ? 503 : 500, 'message', {
      t,
      title: t.errorTitle,
      heading: t.errorTitle,
      paragraphs: [t.errorBody],
    });
  });

  /**
   * The page for a participation that cannot take answers now (not open yet, closed, sent), or
   * undefined when it can.
   */
  function stateGate(reply: FastifyReply, participation: Participation) {
    const { t } = chrome(participation);
    if (participation.member.status === 'completed')
      return reply.code(303).redirect(q(participation.member.token, '/done'));
    if (participation.campaignStatus === 'inactive') {
      return page(reply, 200, 'message', {
        ...chrome(participation),
        title: t.notOpenTitle,
        heading: t.notOpenTitle,
        paragraphs: [fill(t.notOpenBody, { start: longDate(participation.campaign.start_at, t) })],
      });
    }
    if (participation.campaignStatus === 'ended') {
      return page(reply, 410, 'message', {
        ...chrome(participation),
        title: t.endedTitle,
        heading: t.endedTitle,
        paragraphs: [t.endedBody],
      });
    }
    return undefined;
  }

  async function open(request: FastifyRequest, reply: FastifyReply) {
    const { token } = request.params as TokenParams;
    const found = await lookup(deps, token);
    if (found.kind !== 'found') {
      clearPage(request, reply, found);
      return undefined;
    }
    return found.participation;
  }

  function questionModel(
    participation: Participation,
    question: Question,
    submission: PageSubmission | undefined,
    problems: Map<string, AnswerProblem>,
  ) {
    const { variant, language } = participation;
    const texts = variant.texts[language] ?? {};
    const t = stringsFor(language);
    // In a 360 the subject reads the question about themself, a rater about the subject by name.
    const personal =
      participation.role === 'self'
        ? texts[`q.${question.code}.self`]
        : participation.subjectName !== undefined
          ? texts[`q.${question.code}.rater`]?.replaceAll('{subject}', participation.subjectName)
          : undefined;
    const legend = personal ?? question.texts[language] ?? texts[`q.${question.code}`] ?? question.code;
    const problem = problems.get(question.code);
    const error = problem
      ? problem.kind === 'too-long'
        ? fill(t.textTooLong, { max: 4000, question: legend })
        : fill(t.selectAnswer, { question: legend })
      : undefined;
    const typed = submission?.typed[question.code];
    const saved = participation.answers[question.code];
    const current = typed ?? (saved === undefined ? '' : String(saved));
    const id = `q-${question.code}`;
    if (question.type === 'text') {
      return {
        textarea: true,
        id,
        name: question.code,
        legend,
        hint: fill(t.textLimit, { max: 4000 }),
        optional: !question.required,
        error,
        value: current,
      };
    }
    const points =
      question.type === 'likert' ? (variant.scales[question.scale]?.points ?? []) : question.options;
    const scale = question.type === 'likert' ? question.scale : undefined;
    return {
      textarea: false,
      id,
      name: question.code,
      legend,
      error,
      options: points.map((point, i) => ({
        id: i === 0 ? id : `${id}-${i + 1}`,
        value: String(point),
        label:
          (scale ? texts[`scale.${scale}.${point}`] : texts[`choice.${question.code}.${point}`]) ??
          String(point),
        checked: current === String(point),
      })),
    };
  }

  function questionPage(
    reply: FastifyReply,
    participation: Participation,
    number: number,
    csrf: string,
    submission?: PageSubmission,
    returnTo?: string,
  ) {
    const { variant, language, member } = participation;
    const texts = variant.texts[language] ?? {};
    const base = chrome(participation);
    const { t } = base;
    const current = variant.pages[number - 1] as Variant['pages'][number];
    const heading = texts[`page.${current.code}.title`] ?? base.serviceName;
    const problems = new Map((submission?.problems ?? []).map((problem) => [problem.code, problem]));
    const questions = current.questions.map((question) =>
      questionModel(participation, question, submission, problems),
    );
    const errors = questions
      .filter((question) => question.error)
      .map((question) => ({ href: `#${question.id}`, text: question.error as string }));
    return page(reply, 200, 'question-page', {
      ...base,
      title: heading,
      errors: errors.length > 0 ? errors : undefined,
      backHref:
        returnTo === 'check'
          ? q(member.token, '/check')
          : number > 1
            ? q(member.token, `/page/${number - 1}`)
            : q(member.token),
      caption: fill(t.pageOf, { page: number, pages: variant.pages.length }),
      heading,
      action: q(member.token, `/page/${number}`),
      csrf,
      returnTo: returnTo === 'check' ? 'check' : undefined,
      questions,
    });
  }

  await signupRoutes(app, deps, kit);

  /** The address of the raters page when this participant may nominate raters (a 360's subject). */
  const ratersHref = (participation: Participation) =>
    participation.variant.roles.find((role) => role.role === participation.role)?.canaddparticipants &&
    participation.campaignStatus !== 'ended'
      ? q(participation.member.token, '/raters')
      : undefined;

  app.get(`${prefix}/assets/assay.css`, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', `"${STYLESHEET_VERSION}"`)
      .type('text/css; charset=utf-8')
      .send(STYLESHEET),
  );

  app.get(`${prefix}/q/:token`, async (request, reply) => {
    const participation = await open(request, reply);
    if (!participation) return reply;
    const gate = stateGate(reply, participation);
    if (gate) return gate;
    await markStarted(deps, participation);
    const { variant, language, member } = participation;
    const incomplete = firstIncompletePage(variant, participation.answers);
    // The link resumes at the first page with a required answer missing, its answers filled in.
    if (Object.keys(participation.answers).length > 0) {
      return reply.code(303).redirect(q(member.token, incomplete > 0 ? `/page/${incomplete}` : '/check'));
    }
    const texts = variant.texts[language] ?? {};
    const base = chrome(participation);
    const seconds = variant.questions.reduce((sum, question) => sum + SECONDS_PER_ITEM[question.type], 0);
    return page(reply, 200, 'intro', {
      ...base,
      title: texts['variant.name'] ?? base.serviceName,
      heading: texts['variant.name'] ?? base.serviceName,
      // The variant's own introduction says how to answer and how long it takes; the general
      // words only stand in for a variant without one.
      paragraphs: texts['questionnaire.intro']
        ? [texts['questionnaire.intro']]
        : [base.t.startIntro, fill(base.t.duration, { minutes: Math.max(1, Math.round(seconds / 60)) })],
      startHref: q(member.token, '/page/1'),
      ratersHref: ratersHref(participation),
      ratersText: signupStringsFor(language).nominateLink,
    });
  });

  const pageNumber = (variant: Variant, text: string) => {
    const n = /^[1-9][0-9]{0,3}$/.test(text) ? Number(text) : 0;
    return n >= 1 && n <= variant.pages.length ? n : 0;
  };

  app.get(`${prefix}/q/:token/page/:page`, async (request, reply) => {
    const participation = await open(request, reply);
    if (!participation) return reply;
    const gate = stateGate(reply, participation);
    if (gate) return gate;
    const number = pageNumber(participation.variant, (request.params as PageParams).page);
    if (number === 0) return reply.code(303).redirect(q(participation.member.token));
    await markStarted(deps, participation);
    const returnTo = (request.query as { return?: string }).return;
    return questionPage(reply, participation, number, csrfToken(request, reply, secure), undefined, returnTo);
  });

  app.post(`${prefix}/q/:token/page/:page`, async (request, reply) => {
    const params = request.params as PageParams;
    const form = formForm(request.body);
    if (!checkCsrf(request, form.csrf, secure)) {
      const participation = await open(request, reply);
      if (!participation) return reply;
      return expired(reply, participation, q(participation.member.token, `/page/${params.page}`));
    }
    const later = form.action === 'later';
    const outcome = await saveAnswers(
      deps,
      params.token,
      (variant) => pageNumber(variant, params.page),
      form,
      !later,
    );
    if (outcome.kind === 'saved') {
      const { token, variant, submission } = outcome;
      return reply
        .code(303)
        .redirect(nextAfterSave(token, variant, pageNumber(variant, params.page), submission, later, form));
    }
    const { found, submission } = outcome;
    if (found.kind !== 'found') return clearPage(request, reply, found);
    const { participation } = found;
    const gate = stateGate(reply, participation);
    if (gate) return gate;
    const { member, variant } = participation;
    const number = pageNumber(variant, params.page);
    if (number === 0 || !submission) return reply.code(303).redirect(q(member.token));
    if (!later && submission.problems.length > 0) {
      const saved = { ...participation, answers: submission.answers };
      return questionPage(
        reply,
        saved,
        number,
        csrfToken(request, reply, secure),
        submission,
        form.return === 'check' ? 'check' : undefined,
      );
    }
    return reply.code(303).redirect(nextAfterSave(member.token, variant, number, submission, later, form));
  });

  /**
   * Where a page saved without a problem leads: "Save and come back later" to the saved page; from
   * the check page back to it when nothing is missing; else the next page, and after the last the
   * first page with a required answer missing, or the check page.
   */
  function nextAfterSave(
    token: string,
    variant: Variant,
    number: number,
    submission: PageSubmission,
    later: boolean,
    form: { return?: string },
  ) {
    if (later) return q(token, '/saved');
    const next = firstIncompletePage(variant, submission.answers);
    if (form.return === 'check' && next === 0) return q(token, '/check');
    if (number < variant.pages.length) return q(token, `/page/${number + 1}`);
    return q(token, next > 0 ? `/page/${next}` : '/check');
  }

  function expired(reply: FastifyReply, participation: Participation, back: string) {
    const base = chrome(participation);
    return page(reply, 403, 'message', {
      ...base,
      title: base.t.expiredTitle,
      heading: base.t.expiredTitle,
      paragraphs: [base.t.expiredBody],
      link: { href: back, text: base.t.tryAgain },
    });
  }

  app.get(`${prefix}/q/:token/saved`, async (request, reply) => {
    const participation = await open(request, reply);
    if (!participation) return reply;
    const gate = stateGate(reply, participation);
    if (gate) return gate;
    const base = chrome(participation);
    const { t } = base;
    const { campaign, member } = participation;
    const until =
      campaign.closingtype === 'date' && campaign.end_at
        ? fill(t.savedUntil, { end: longDate(campaign.end_at, t) })
        : t.savedNoEnd;
    return page(reply, 200, 'message', {
      ...base,
      title: t.savedTitle,
      heading: t.savedTitle,
      paragraphs: [t.savedBody, until],
      link: { href: q(member.token), text: t.continueAnswering },
    });
  });

  app.get(`${prefix}/q/:token/check`, async (request, reply) => {
    const participation = await open(request, reply);
    if (!participation) return reply;
    const gate = stateGate(reply, participation);
    if (gate) return gate;
    const { variant, language, member } = participation;
    const incomplete = firstIncompletePage(variant, participation.answers);
    if (incomplete > 0) return reply.code(303).redirect(q(member.token, `/page/${incomplete}`));
    const texts = variant.texts[language] ?? {};
    const base = chrome(participation);
    const sections = variant.pages.map((current, index) => ({
      title:
        texts[`page.${current.code}.title`] ??
        fill(base.t.pageOf, { page: index + 1, pages: variant.pages.length }),
      rows: current.questions.map((question) => {
        const model = questionModel(participation, question, undefined, new Map());
        const answer = model.textarea
          ? (model.value as string)
          : (model.options?.find((option) => option.checked)?.label ?? '');
        return {
          question: model.legend,
          answer,
          href: q(member.token, `/page/${index + 1}?return=check#${model.id}`),
          hidden: fill(base.t.changeHidden, { question: model.legend }),
        };
      }),
    }));
    return page(reply, 200, 'check', {
      ...base,
      title: base.t.checkTitle,
      backHref: q(member.token, `/page/${variant.pages.length}`),
      sections,
      action: q(member.token, '/check'),
      csrf: csrfToken(request, reply, secure),
    });
  });

  app.post(`${prefix}/q/:token/check`, async (request, reply) => {
    const participation = await open(request, reply);
    if (!participation) return reply;
    const { member } = participation;
    if (member.status === 'completed') return reply.code(303).redirect(q(member.token, '/done'));
    if (!checkCsrf(request, formForm(request.body).csrf, secure))
      return expired(reply, participation, q(member.token, '/check'));
    const outcome = await complete(deps, member.token);
    if (outcome.kind === 'incomplete')
      return reply.code(303).redirect(q(member.token, `/page/${outcome.page}`));
    if (outcome.kind === 'completed') return reply.code(303).redirect(q(member.token, '/done'));
    return reply.code(303).redirect(q(member.token));
  });

  app.get(`${prefix}/q/:token/done`, async (request, reply) => {
    const participation = await open(request, reply);
    if (!participation) return reply;
    const { member, campaign, variant, language } = participation;
    if (member.status !== 'completed') return reply.code(303).redirect(q(member.token));
    const base = chrome(participation);
    return page(reply, 200, 'done', {
      ...base,
      title: base.t.doneTitle,
      thanks: variant.texts[language]?.['questionnaire.thanks'] ?? '',
      reportHref: campaign.sendreportdelivery === 1 ? `${prefix}/r/${member.token}` : undefined,
      ratersHref: ratersHref(participation),
      ratersText: signupStringsFor(language).nominateLink,
    });
  });

  app.get(`${prefix}/r/:token`, async (request, reply) => {
    const { token } = request.params as TokenParams;
    const reportId = await reportOfToken(deps, token);
    if (reportId) {
      const rendered = await renderReport(deps, reportId);
      // HEAD (which Fastify answers with this handler) looks without opening.
      if (request.method === 'GET') await markOpened(deps, reportId);
      return sendPdf(reply, rendered);
    }
    const found = await lookup(deps, token);
    if (found.kind !== 'found') return clearPage(request, reply, found);
    const base = chrome(found.participation);
    return page(reply, 404, 'message', {
      ...base,
      title: base.t.reportNotReadyTitle,
      heading: base.t.reportNotReadyTitle,
      paragraphs: [base.t.reportNotReadyBody],
      link: { href: q(token), text: base.t.tryAgain },
    });
  });
}
export { questionnairePrefix } from './page-kit.js';
