import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { anonymousActor, participantActor } from '../audit/actor.js';
import { FailureLimiter } from '../auth/rate-limit.js';
import { statusOf } from '../campaigns/campaigns.service.js';
import type { AppContext } from '../context.js';
import { checkCsrf, csrfToken } from '../pages/security.js';
import { signupStringsFor } from '../pages/signup-strings.js';
import { formOf, type PageKit, pageKit } from './page-kit.js';
import { lookup, type Participation } from './questionnaire.service.js';
import {
  campaignByAlias,
  checkSignupForm,
  nominateRater,
  ratersOf,
  selfRegistrationOf,
  signUp,
} from './signup.service.js';
import { chromeOf, endedView, expiredView, notOpenView } from './views/page-view.js';
import {
  campaignLanguage,
  closedSignupView,
  nominationProblem,
  type RatersOptions,
  ratersView,
  readNomination,
  signedUpView,
  signupCampaign,
  signupView,
  tooManyView,
} from './views/signup.view.js';

/** Sign-ups a minute from one address; beyond it the page asks to wait. */
export const SIGNUPS_PER_MINUTE = 10;

/** Nominations a minute from one address (on any subject's raters page); beyond it the page asks to wait. */
export const NOMINATIONS_PER_MINUTE = 10;

const AliasParams = Type.Object({ alias: Type.String() });
const TokenParams = Type.Object({ token: Type.String() });
// Read where they are used: a repeated or unknown field is ignored there, never refused here.
const RatersQuery = Type.Object({ added: Type.Optional(Type.Unknown()) });
const Form = Type.Unknown();

/** Self-registration at /s/<alias>. */
export const signupRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, deps) => {
  const { prefix, secure, paths, show } = pageKit(deps.config);
  // Every sign-up counts (not only failures): each may create a member and send mail. On
  // PostgreSQL the counts are shared by every process on the database.
  const limiter = new FailureLimiter(SIGNUPS_PER_MINUTE, deps.clock).share(deps.db, deps.dialect, 'signup');

  /** The campaign of a sign-up link that takes sign-ups now, or undefined once the page that says why not is sent. */
  async function open(reply: FastifyReply, alias: string) {
    const campaign = await campaignByAlias(deps, alias);
    const settings = campaign ? selfRegistrationOf(campaign) : undefined;
    const language = campaign ? campaignLanguage(campaign, deps.variants) : 'enUS';
    if (!campaign || !settings) {
      show(reply, 404, closedSignupView(language));
      return undefined;
    }
    const found = signupCampaign(campaign, settings, language);
    const status = await statusOf(deps, campaign);
    if (status === 'inactive') show(reply, 200, notOpenView(found.base, campaign.start_at));
    else if (status === 'ended') show(reply, 410, endedView(found.base));
    else return { ...found, row: campaign };
    return undefined;
  }

  app.get(`${prefix}/s/:alias`, { schema: { params: AliasParams } }, async (request, reply) => {
    const found = await open(reply, request.params.alias);
    if (!found) return reply;
    return show(reply, 200, signupView(found, paths, csrfToken(request, reply, secure)));
  });

  app.post(`${prefix}/s/:alias`, { schema: { params: AliasParams, body: Form } }, async (request, reply) => {
    const found = await open(reply, request.params.alias);
    if (!found) return reply;
    const form = formOf(request.body);
    if (!checkCsrf(request, form.csrf, secure))
      return show(reply, 403, expiredView(found.base, paths.signup(found.campaign.alias)));
    const { value, problems } = checkSignupForm(form, found.settings.register);
    if (problems.length > 0)
      return show(
        reply,
        200,
        signupView(found, paths, csrfToken(request, reply, secure), { ...value }, problems),
      );
    const wait = await limiter.take(request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return show(reply, 429, tooManyView(found.base, found.s));
    }
    const outcome = await signUp(deps, anonymousActor(request.ip), found.row, found.settings, value);
    if (outcome.kind === 'go') return reply.code(303).redirect(paths.q(outcome.token));
    return show(reply, 200, signedUpView(found, outcome.kind === 'full' ? 'full' : 'sent', value.email));
  });
};

/**
 * The participation of a subject who may nominate raters (their role `canaddparticipants`); any
 * other link gets its clear page, or the questionnaire.
 */
async function nominatorOf(
  deps: AppContext,
  kit: PageKit,
  reply: FastifyReply,
  token: string,
  acceptLanguage?: string,
): Promise<Participation | undefined> {
  const found = await lookup(deps, token);
  if (found.kind !== 'found') {
    kit.showClear(reply, found, acceptLanguage);
    return undefined;
  }
  const { participation } = found;
  const role = participation.variant.roles.find((entry) => entry.role === participation.role);
  if (!role?.canaddparticipants || participation.campaignStatus === 'ended') {
    reply.code(303).redirect(kit.paths.q(token));
    return undefined;
  }
  return participation;
}

/** The 360 subject's nomination of raters at /q/<token>/raters. */
export const raterRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, deps) => {
  const kit = pageKit(deps.config);
  const { prefix, secure, paths, show } = kit;
  // Every nomination that passes the form's checks counts, added or not: each may mail a stranger.
  const nominations = new FailureLimiter(NOMINATIONS_PER_MINUTE, deps.clock).share(
    deps.db,
    deps.dialect,
    'raters',
  );

  const nominator = (reply: FastifyReply, token: string, acceptLanguage?: string) =>
    nominatorOf(deps, kit, reply, token, acceptLanguage);
  const showRaters = async (
    reply: FastifyReply,
    participation: Participation,
    csrf: string,
    options?: RatersOptions,
  ) => show(reply, 200, ratersView(participation, await ratersOf(deps, participation), paths, csrf, options));

  app.get(
    `${prefix}/q/:token/raters`,
    { schema: { params: TokenParams, querystring: RatersQuery } },
    async (request, reply) => {
      const participation = await nominator(reply, request.params.token, request.headers['accept-language']);
      if (!participation) return reply;
      const { added } = request.query;
      const csrf = csrfToken(request, reply, secure);
      return showRaters(
        reply,
        participation,
        csrf,
        typeof added === 'string' && added.length <= 300 ? { added } : {},
      );
    },
  );

  app.post(
    `${prefix}/q/:token/raters`,
    { schema: { params: TokenParams, body: Form } },
    async (request, reply) => {
      const participation = await nominator(reply, request.params.token, request.headers['accept-language']);
      if (!participation) return reply;
      const token = participation.member.token;
      const form = formOf(request.body);
      if (!checkCsrf(request, form.csrf, secure))
        return show(reply, 403, expiredView(chromeOf(participation), paths.q(token, '/raters')));
      const nomination = readNomination(participation, form);
      const csrf = csrfToken(request, reply, secure);
      if (nomination.problem) return showRaters(reply, participation, csrf, nomination.problem);
      const { value, role } = nomination;
      const wait = await nominations.take(request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        const s = signupStringsFor(participation.language);
        return show(reply, 429, tooManyView(chromeOf(participation), s, paths.q(token, '/raters')));
      }
      const outcome = await nominateRater(
        deps,
        participantActor(participation.member.member_id, request.ip),
        participation,
        value,
        role,
      );
      const problem = nominationProblem(participation, outcome, role);
      if (problem) return showRaters(reply, participation, csrf, { values: { ...value }, role, ...problem });
      const name = `${value.firstname} ${value.lastname}`;
      return reply.code(303).redirect(`${paths.q(token, '/raters')}?added=${encodeURIComponent(name)}`);
    },
  );
};
