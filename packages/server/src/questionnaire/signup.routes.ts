import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FailureLimiter } from '../auth/rate-limit.js';
import { emptyCounts, statusCounts } from '../campaigns/campaigns.repository.js';
import { nowOf } from '../campaigns/campaigns.service.js';
import type { CampaignRow } from '../campaigns/campaigns.table.js';
import { campaignStatus } from '../campaigns/campaigns.wire.js';
import type { AppContext } from '../context.js';
import { checkCsrf, csrfToken } from '../pages/security.js';
import { type SignupStrings, signupStringsFor } from '../pages/signup-strings.js';
import { fill, type PageStrings, stringsFor } from '../pages/strings.js';
import { isolate } from '../util/safe-text.js';
import { caseFold } from '../util/text.js';
import { isLanguage, type Language } from '../variants/variant.types.js';
import type { PageKit } from './page-kit.js';
import { lookup, type Participation } from './questionnaire.service.js';
import {
  campaignByAlias,
  checkSignupForm,
  type FieldProblem,
  nominateRater,
  RATERS_PER_SUBJECT,
  ratersOf,
  ratersPerRole,
  selfRegistrationOf,
  signUp,
} from './signup.service.js';

/** Sign-ups a minute from one address; beyond it the page asks to wait. */
export const SIGNUPS_PER_MINUTE = 10;

/** Nominations a minute from one address (on any subject's raters page); beyond it the page asks to wait. */
export const NOMINATIONS_PER_MINUTE = 10;

const formOf = (body: unknown) =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};

function fieldError(s: SignupStrings, problem: FieldProblem | undefined, rater: boolean): string | undefined {
  if (!problem) return undefined;
  if (problem.field === 'email') {
    if (problem.kind !== 'missing') return s.emailInvalid;
    return rater ? s.raterEmailMissing : s.emailMissing;
  }
  if (problem.kind === 'too-long') return s.nameTooLong;
  if (problem.kind === 'link') return s.nameHasLink;
  if (problem.kind === 'control') return s.nameHasControl;
  if (problem.field === 'firstname') return rater ? s.raterFirstnameMissing : s.firstnameMissing;
  return rater ? s.raterLastnameMissing : s.lastnameMissing;
}

/** The name and e-mail fields of a sign-up (about the visitor) or of a nomination (`rater`: about someone else). */
function fields(
  t: PageStrings,
  s: SignupStrings,
  values: Record<string, string>,
  problems: FieldProblem[],
  names: boolean,
  rater = false,
) {
  const list = [
    ...(names
      ? [
          { name: 'firstname', label: s.firstname, type: 'text', autocomplete: rater ? 'off' : 'given-name' },
          { name: 'lastname', label: s.lastname, type: 'text', autocomplete: rater ? 'off' : 'family-name' },
        ]
      : []),
    {
      name: 'email',
      label: s.email,
      type: 'email',
      autocomplete: rater ? 'off' : 'email',
      hint: rater ? s.raterEmailHint : s.emailHint,
    },
  ];
  return list.map((field) => {
    const error = fieldError(
      s,
      problems.find((problem) => problem.field === field.name),
      rater,
    );
    const id = `f-${field.name}`;
    const describedBy = [field.hint ? `${id}-hint` : '', error ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ');
    return {
      ...field,
      id,
      value: values[field.name] ?? '',
      error,
      errorHidden: t.errorHidden,
      describedBy: describedBy || undefined,
    };
  });
}

/** Self-registration at /s/<alias> and the 360 subject's nomination of raters at /q/<token>/raters. */
export async function signupRoutes(app: FastifyInstance, deps: AppContext, kit: PageKit) {
  const { prefix, secure, q, page, message } = kit;
  // Every sign-up and nomination counts (not only failures): each may create a member and send mail.
  // On PostgreSQL the counts are shared by every process on the database.
  const limiter = new FailureLimiter(SIGNUPS_PER_MINUTE).share(deps.db, deps.dialect, 'signup');
  const nominations = new FailureLimiter(NOMINATIONS_PER_MINUTE).share(deps.db, deps.dialect, 'raters');

  const languageOf = (campaign: CampaignRow): Language => {
    const variant = deps.variants.get(campaign.variant);
    return isLanguage(campaign.language) && variant?.languages.includes(campaign.language)
      ? campaign.language
      : (variant?.defaultLanguage ?? 'enUS');
  };

  async function statusOf(campaign: CampaignRow) {
    const counts =
      campaign.closingtype === 'auto'
        ? ((await statusCounts(deps.db, campaign.id)).get(campaign.id) ?? emptyCounts())
        : emptyCounts();
    return campaignStatus(campaign, counts, nowOf(deps));
  }

  /** The campaign of a sign-up link that takes sign-ups now, or the page that says why not. */
  async function signupCampaign(request: FastifyRequest, reply: FastifyReply) {
    const { alias } = request.params as { alias: string };
    const campaign = await campaignByAlias(deps, alias);
    const settings = campaign ? selfRegistrationOf(campaign) : undefined;
    const language = campaign ? languageOf(campaign) : 'enUS';
    const t = stringsFor(language);
    const s = signupStringsFor(language);
    if (!campaign || !settings) {
      message(reply, 404, { t }, s.closedSignupTitle, [s.closedSignupBody]);
      return undefined;
    }
    const base = { t, serviceName: campaign.name };
    const status = await statusOf(campaign);
    if (status === 'inactive') {
      message(reply, 200, base, t.notOpenTitle, [
        fill(t.notOpenBody, { start: kit.longDate(campaign.start_at, t) }),
      ]);
      return undefined;
    }
    if (status === 'ended') {
      message(reply, 410, base, t.endedTitle, [t.endedBody]);
      return undefined;
    }
    return { campaign, settings, t, s, base };
  }

  function signupPage(
    reply: FastifyReply,
    found: NonNullable<Awaited<ReturnType<typeof signupCampaign>>>,
    csrf: string,
    values: Record<string, string> = {},
    problems: FieldProblem[] = [],
  ) {
    const { settings, t, s, base, campaign } = found;
    const heading = settings.register ? s.registerTitle : s.signupTitle;
    const list = fields(t, s, values, problems, settings.register);
    const errors = list
      .filter((field) => field.error)
      .map((field) => ({ href: `#${field.id}`, text: field.error as string }));
    return page(reply, 200, 'signup', {
      ...base,
      s,
      title: heading,
      heading,
      intro: settings.register ? s.registerIntro : s.signupIntro,
      errors: errors.length > 0 ? errors : undefined,
      action: `${prefix}/s/${campaign.alias}`,
      csrf,
      fields: list,
    });
  }

  app.get(`${prefix}/s/:alias`, async (request, reply) => {
    const found = await signupCampaign(request, reply);
    if (!found) return reply;
    return signupPage(reply, found, csrfToken(request, reply, secure));
  });

  app.post(`${prefix}/s/:alias`, async (request, reply) => {
    const found = await signupCampaign(request, reply);
    if (!found) return reply;
    const { t, s, base, settings, campaign } = found;
    const form = formOf(request.body);
    if (!checkCsrf(request, form.csrf, secure)) {
      return message(reply, 403, base, t.expiredTitle, [t.expiredBody], {
        href: `${prefix}/s/${campaign.alias}`,
        text: t.tryAgain,
      });
    }
    const { value, problems } = checkSignupForm(form, settings.register);
    if (problems.length > 0)
      return signupPage(
        reply,
        found,
        csrfToken(request, reply, secure),
        value as unknown as Record<string, string>,
        problems,
      );
    const wait = await limiter.take(request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return message(reply, 429, base, s.tooManyTitle, [s.tooManyBody]);
    }
    const outcome = await signUp(deps, campaign, settings, value);
    if (outcome.kind === 'go') return reply.code(303).redirect(q(outcome.token));
    if (outcome.kind === 'full') return message(reply, 200, base, s.fullTitle, [s.fullBody]);
    return message(reply, 200, base, s.checkEmailTitle, [
      fill(s.checkEmailBody, { email: value.email }),
      s.checkEmailNext,
    ]);
  });

  // ---- 360: the subject chooses who gives feedback -------------------------------------------

  /** The participation of a subject who may nominate raters (their role `canaddparticipants`). */
  async function nominator(request: FastifyRequest, reply: FastifyReply): Promise<Participation | undefined> {
    const { token } = request.params as { token: string };
    const found = await lookup(deps, token);
    if (found.kind !== 'found') {
      kit.clearPage(request, reply, found);
      return undefined;
    }
    const { participation } = found;
    const role = participation.variant.roles.find((entry) => entry.role === participation.role);
    if (!role?.canaddparticipants || participation.campaignStatus === 'ended') {
      reply.code(303).redirect(q(token));
      return undefined;
    }
    return participation;
  }

  async function ratersPage(
    reply: FastifyReply,
    participation: Participation,
    csrf: string,
    options: {
      values?: Record<string, string>;
      problems?: FieldProblem[];
      roleError?: string;
      role?: string;
      added?: string;
      extraError?: { field: string; text: string };
      /** A problem of the whole nomination (the subject's cap, a full campaign), shown above the form. */
      pageError?: string;
    } = {},
  ) {
    const base = kit.chrome(participation);
    const { t } = base;
    const s = signupStringsFor(participation.language);
    const texts = participation.variant.texts[participation.language] ?? {};
    const list = fields(t, s, options.values ?? {}, options.problems ?? [], true, true).map((field) =>
      options.extraError && options.extraError.field === field.name
        ? { ...field, error: options.extraError.text, describedBy: `${field.id}-error` }
        : field,
    );
    const roles = participation.variant.roles
      .filter((role) => !role.canaddparticipants)
      .map((role, i) => ({
        id: i === 0 ? 'role' : `role-${i + 1}`,
        value: role.role,
        label: texts[`role.${role.role}`] ?? role.role,
        checked: options.role === role.role,
      }));
    const errors = [
      ...list
        .filter((field) => field.error)
        .map((field) => ({ href: `#${field.id}`, text: field.error as string })),
      ...(options.roleError ? [{ href: '#role', text: options.roleError }] : []),
      ...(options.pageError ? [{ href: '#raters-add', text: options.pageError }] : []),
    ];
    // Only what the subject typed: never the stored member's name, nor whether anyone has answered.
    const raters = (await ratersOf(deps, participation)).map((rater) => ({
      name: rater.name,
      email: rater.email,
      role: texts[`role.${rater.role}`] ?? rater.role,
    }));
    const canAdd = raters.length < RATERS_PER_SUBJECT;
    return page(reply, 200, 'raters', {
      ...base,
      s,
      title: s.ratersTitle,
      backHref: q(participation.member.token),
      errors: errors.length > 0 ? errors : undefined,
      added: options.added,
      raters,
      canAdd,
      pageError: options.pageError,
      allFull: canAdd ? undefined : fill(s.ratersAllFull, { max: String(RATERS_PER_SUBJECT) }),
      action: q(participation.member.token, '/raters'),
      csrf,
      fields: list,
      roleError: options.roleError,
      roles,
      questionnaireHref: q(participation.member.token),
    });
  }

  app.get(`${prefix}/q/:token/raters`, async (request, reply) => {
    const participation = await nominator(request, reply);
    if (!participation) return reply;
    const added = (request.query as { added?: string }).added;
    const s = signupStringsFor(participation.language);
    return ratersPage(reply, participation, csrfToken(request, reply, secure), {
      ...(typeof added === 'string' && added.length <= 300
        ? { added: fill(s.ratersAdded, { name: isolate(added) }) }
        : {}),
    });
  });

  app.post(`${prefix}/q/:token/raters`, async (request, reply) => {
    const participation = await nominator(request, reply);
    if (!participation) return reply;
    const base = kit.chrome(participation);
    const s = signupStringsFor(participation.language);
    const form = formOf(request.body);
    if (!checkCsrf(request, form.csrf, secure)) {
      return message(reply, 403, base, base.t.expiredTitle, [base.t.expiredBody], {
        href: q(participation.member.token, '/raters'),
        text: base.t.tryAgain,
      });
    }
    const { value, problems } = checkSignupForm(form, true);
    const roles = participation.variant.roles
      .filter((role) => !role.canaddparticipants)
      .map((role) => role.role);
    const role = typeof form.role === 'string' && roles.includes(form.role) ? form.role : undefined;
    const values = value as unknown as Record<string, string>;
    const csrf = csrfToken(request, reply, secure);
    if (problems.length > 0 || !role) {
      return ratersPage(reply, participation, csrf, {
        values,
        problems,
        role,
        ...(role ? {} : { roleError: s.roleMissing }),
      });
    }
    if (caseFold(value.email) === caseFold(participation.member.email)) {
      return ratersPage(reply, participation, csrf, {
        values,
        role,
        extraError: { field: 'email', text: s.raterIsYou },
      });
    }
    const wait = await nominations.take(request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return message(reply, 429, base, s.tooManyTitle, [s.tooManyBody], {
        href: q(participation.member.token, '/raters'),
        text: base.t.tryAgain,
      });
    }
    const outcome = await nominateRater(deps, participation, value, role);
    if (outcome === 'self' || outcome === 'present') {
      return ratersPage(reply, participation, csrf, {
        values,
        role,
        extraError: { field: 'email', text: outcome === 'self' ? s.raterIsYou : s.raterPresent },
      });
    }
    if (outcome === 'role-cap') {
      const texts = participation.variant.texts[participation.language] ?? {};
      return ratersPage(reply, participation, csrf, {
        values,
        role,
        roleError: fill(s.ratersRoleFull, {
          max: String(ratersPerRole(role)),
          role: texts[`role.${role}`] ?? role,
        }),
      });
    }
    if (outcome === 'subject-cap' || outcome === 'full') {
      return ratersPage(reply, participation, csrf, {
        values,
        role,
        pageError:
          outcome === 'full'
            ? s.ratersCampaignFull
            : fill(s.ratersAllFull, { max: String(RATERS_PER_SUBJECT) }),
      });
    }
    const name = `${value.firstname} ${value.lastname}`;
    return reply
      .code(303)
      .redirect(`${q(participation.member.token, '/raters')}?added=${encodeURIComponent(name)}`);
  });
}
