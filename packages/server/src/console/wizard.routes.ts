import { MAIL_STAGES } from '@assay/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type MailPreview, previewCampaignMail, previewMail } from '../campaigns/campaign-mail.service.js';
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import type { ApiInstance } from '../http/route-schema.js';
import { fieldsOf } from '../http/route-schema.js';
import { signupLink } from '../questionnaire/links.js';
import type { MailStage } from '../variants/variant.types.js';
import { consoleActorOf, sendMailHtml, showConsole, viewerOf } from './console-kit.js';
import { type DraftAnswers, discardDraft, loadDraft, saveDraft } from './drafts.service.js';
import {
  CHECK_HREF,
  mailPreviewView,
  stepHref,
  wizardCheckView,
  wizardStepView,
} from './views/wizard.view.js';
import {
  checkAll,
  checkAnswers,
  createFromAnswers,
  draftCampaign,
  type WizardProblem,
} from './wizard.service.js';
import { applies, firstUnanswered, isStep, nextStep, readStep, STEPS, type Step } from './wizard-steps.js';
import { wizardStrings } from './wizard-strings.js';

const StepParams = Type.Object({ step: Type.String({ maxLength: 40 }) });
const ReturnQuery = Type.Object({ return: Type.Optional(Type.String()) });
const StageParams = Type.Object({ stage: Type.String({ maxLength: 40 }) });
const CampaignStageParams = Type.Object({
  campaignid: Type.String({ maxLength: 40 }),
  stage: Type.String({ maxLength: 40 }),
});

const stepOf = (value: string): Step => {
  if (!isStep(value)) throw notFound('page');
  return value;
};
const stageOf = (value: string): MailStage => {
  if (!(MAIL_STAGES as readonly string[]).includes(value)) throw notFound('mail stage');
  return value as MailStage;
};

/**
 * The campaign wizard at /console/campaigns/new: one question a page, its answers kept in the
 * session's draft, a check-your-answers page, then the campaign created as POST /campaigns
 * creates it; and the previews of the mails a campaign (drafted or created) sends.
 */
export async function wizardRoutes(app: ApiInstance, deps: AppContext) {
  const signupPrefix = signupLink(deps, '');
  const caller = (request: FastifyRequest) => ({ userId: request.operator?.user.id ?? '' });
  const draftOf = (request: FastifyRequest) =>
    request.operator ? loadDraft(deps.db, request.operator.session, 'campaign') : Promise.resolve({});
  const variants = () => deps.variants.list();
  /** Where the wizard goes on: the first page still to answer, else the check page. */
  const resume = (answers: DraftAnswers) => {
    const step = firstUnanswered(answers);
    return step ? stepHref(step) : CHECK_HREF;
  };

  const showStep = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    input: { step: Step; answers: DraftAnswers; problem?: WizardProblem; returnTo?: 'check' },
  ) =>
    showConsole(
      reply,
      status,
      wizardStepView(viewerOf(request), { ...input, variants: variants(), signupPrefix }),
    );

  app.get('/campaigns/new', async (request, reply) => reply.redirect(resume(await draftOf(request)), 303));

  app.get('/campaigns/new/check', async (request, reply) => {
    const answers = await draftOf(request);
    const missing = firstUnanswered(answers);
    if (missing) return reply.redirect(stepHref(missing), 303);
    const problem = await checkAll(deps, caller(request), answers);
    const view = wizardCheckView(viewerOf(request), { answers, variants: variants(), signupPrefix, problem });
    return showConsole(reply, 200, view);
  });

  app.post('/campaigns/new/check', async (request, reply) => {
    const answers = await draftOf(request);
    const missing = firstUnanswered(answers);
    if (missing) return reply.redirect(stepHref(missing), 303);
    const problem = await checkAll(deps, caller(request), answers);
    const done = problem
      ? { problem }
      : await createFromAnswers(deps, caller(request), answers, consoleActorOf(request));
    if ('problem' in done) {
      return showStep(request, reply, 400, {
        step: done.problem.step,
        answers,
        problem: done.problem,
        returnTo: 'check',
      });
    }
    if (request.operator) await discardDraft(deps.db, request.operator.session, 'campaign');
    return reply.redirect(`/console/campaigns/${done.campaign.campaignid}`, 303);
  });

  app.get(
    '/campaigns/new/:step',
    { schema: { params: StepParams, querystring: ReturnQuery } },
    async (request, reply) => {
      const step = stepOf(request.params.step);
      const answers = await draftOf(request);
      const missing = firstUnanswered(answers);
      const before = missing !== undefined && STEPS.indexOf(missing) < STEPS.indexOf(step);
      if (!applies(step, answers) || before) return reply.redirect(resume(answers), 303);
      const returnTo = request.query.return === 'check' ? 'check' : undefined;
      return showStep(request, reply, 200, { step, answers, returnTo });
    },
  );

  app.post('/campaigns/new/:step', { schema: { params: StepParams } }, async (request, reply) => {
    const step = stepOf(request.params.step);
    const form = fieldsOf(request.body);
    const returnTo = form.return === 'check' ? 'check' : undefined;
    const draft = await draftOf(request);
    if (!applies(step, draft)) return reply.redirect(resume(draft), 303);
    const answers: Record<string, string> = { ...draft, ...readStep(step, form) };
    // Another questionnaire may not offer the language chosen for the last one: ask again.
    const variant = deps.variants.get(answers.variant ?? '');
    if (
      step === 'variant' &&
      variant &&
      !(variant.languages as readonly string[]).includes(answers.language ?? '')
    )
      delete answers.language;
    const problem = await checkAnswers(deps, caller(request), answers, step);
    if (problem && problem.step === step)
      return showStep(request, reply, 400, { step, answers, problem, returnTo });
    if (request.operator)
      await saveDraft(deps.db, request.operator.session, 'campaign', answers, deps.clock());
    const next = returnTo ? firstUnanswered(answers) : (nextStep(step, answers) ?? firstUnanswered(answers));
    return reply.redirect(next ? stepHref(next, returnTo) : CHECK_HREF, 303);
  });

  // The mails of the campaign being drafted, as its participants would receive them.
  const draftPreview = async (request: FastifyRequest, stage: MailStage) => {
    const campaign = await draftCampaign(deps, caller(request), await draftOf(request));
    return campaign ? previewMail(deps, campaign, stage) : undefined;
  };
  const showPreview = (
    request: FastifyRequest,
    reply: FastifyReply,
    stage: MailStage,
    mail: MailPreview,
    back: { href: string; text: string },
  ) =>
    showConsole(
      reply,
      200,
      mailPreviewView(viewerOf(request), {
        stage,
        mail,
        htmlHref: `${request.url.split('?')[0]}/html`,
        backHref: back.href,
        backText: back.text,
      }),
    );
  const sendHtml = (reply: FastifyReply, mail: MailPreview) => sendMailHtml(reply, mail.html);

  app.get('/campaigns/new/preview/:stage', { schema: { params: StageParams } }, async (request, reply) => {
    const stage = stageOf(request.params.stage);
    const mail = await draftPreview(request, stage);
    if (!mail) return reply.redirect(CHECK_HREF, 303);
    const w = wizardStrings(viewerOf(request).language);
    return showPreview(request, reply, stage, mail, { href: CHECK_HREF, text: w.backToCheck });
  });

  app.get(
    '/campaigns/new/preview/:stage/html',
    { schema: { params: StageParams } },
    async (request, reply) => {
      const mail = await draftPreview(request, stageOf(request.params.stage));
      if (!mail) return reply.redirect(CHECK_HREF, 303);
      return sendHtml(reply, mail);
    },
  );

  app.get(
    '/campaigns/:campaignid/preview/:stage',
    { schema: { params: CampaignStageParams } },
    async (request, reply) => {
      const stage = stageOf(request.params.stage);
      const mail = await previewCampaignMail(deps, request.params.campaignid, stage);
      const w = wizardStrings(viewerOf(request).language);
      return showPreview(request, reply, stage, mail, {
        href: `/console/campaigns/${encodeURIComponent(request.params.campaignid)}`,
        text: w.backToCampaign,
      });
    },
  );

  app.get(
    '/campaigns/:campaignid/preview/:stage/html',
    { schema: { params: CampaignStageParams } },
    async (request, reply) =>
      sendHtml(
        reply,
        await previewCampaignMail(deps, request.params.campaignid, stageOf(request.params.stage)),
      ),
  );
}
