import type { CampaignRow } from '../../campaigns/campaigns.table.js';
import { type SignupStrings, signupStringsFor } from '../../pages/signup-strings.js';
import { fill, type PageStrings, stringsFor } from '../../pages/strings.js';
import { isolate } from '../../util/safe-text.js';
import { caseFold } from '../../util/text.js';
import { isLanguage, type Language, type VariantRegistry } from '../../variants/variant.types.js';
import type { Participation } from '../questionnaire.service.js';
import {
  checkSignupForm,
  type FieldProblem,
  type ListedRater,
  type NominationOutcome,
  RATERS_PER_SUBJECT,
  ratersPerRole,
  type SelfRegistration,
  type SignupForm,
} from '../signup.service.js';
import { type Chrome, chromeOf, messageView, type PagePaths, type PageView } from './page-view.js';

/** The error of a name or e-mail field: about the visitor, or (`rater`) about someone else. */
export function fieldError(
  s: SignupStrings,
  problem: FieldProblem | undefined,
  rater: boolean,
): string | undefined {
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
export function fields(
  t: PageStrings,
  s: SignupStrings,
  values: Readonly<Record<string, string>>,
  problems: readonly FieldProblem[],
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
    const hint = 'hint' in field ? field.hint : undefined;
    const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
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

/** The language of a campaign's pages: its own when its variant speaks it, else the variant's default. */
export function campaignLanguage(
  campaign: Pick<CampaignRow, 'variant' | 'language'>,
  variants: VariantRegistry,
): Language {
  const variant = variants.get(campaign.variant);
  return isLanguage(campaign.language) && variant?.languages.includes(campaign.language)
    ? campaign.language
    : (variant?.defaultLanguage ?? 'enUS');
}

/** A sign-up link's campaign with what its pages need. */
export interface SignupCampaign {
  readonly campaign: Pick<CampaignRow, 'alias' | 'name' | 'start_at'>;
  readonly settings: SelfRegistration;
  readonly t: PageStrings;
  readonly s: SignupStrings;
  readonly base: Chrome;
}

export function signupCampaign(
  campaign: Pick<CampaignRow, 'alias' | 'name' | 'start_at'>,
  settings: SelfRegistration,
  language: Language,
): SignupCampaign {
  const t = stringsFor(language);
  return { campaign, settings, t, s: signupStringsFor(language), base: { t, serviceName: campaign.name } };
}

/** A sign-up link that takes no sign-ups: unknown, or self-registration off. */
export function closedSignupView(language: Language): PageView {
  const s = signupStringsFor(language);
  return messageView({ t: stringsFor(language) }, s.closedSignupTitle, [s.closedSignupBody]);
}

/** The sign-up form: names and e-mail to register, the e-mail alone to ask for one's link. */
export function signupView(
  found: SignupCampaign,
  paths: PagePaths,
  csrf: string,
  values: Readonly<Record<string, string>> = {},
  problems: readonly FieldProblem[] = [],
): PageView {
  const { settings, t, s, base, campaign } = found;
  const heading = settings.register ? s.registerTitle : s.signupTitle;
  const list = fields(t, s, values, problems, settings.register);
  const errors = list.flatMap((field) => (field.error ? [{ href: `#${field.id}`, text: field.error }] : []));
  return {
    template: 'signup',
    model: {
      ...base,
      s,
      title: heading,
      heading,
      intro: settings.register ? s.registerIntro : s.signupIntro,
      errors: errors.length > 0 ? errors : undefined,
      action: paths.signup(campaign.alias),
      csrf,
      fields: list,
    },
  };
}

/** What a sign-up leads to when it does not go straight on to the questionnaire. */
export function signedUpView(found: SignupCampaign, outcome: 'full' | 'sent', email: string): PageView {
  const { s, base } = found;
  if (outcome === 'full') return messageView(base, s.fullTitle, [s.fullBody]);
  return messageView(base, s.checkEmailTitle, [fill(s.checkEmailBody, { email }), s.checkEmailNext]);
}

/** Too many sign-ups or nominations from one address: wait a minute. */
export function tooManyView(base: Chrome, s: SignupStrings, back?: string): PageView {
  return messageView(
    base,
    s.tooManyTitle,
    [s.tooManyBody],
    back ? { href: back, text: base.t.tryAgain } : undefined,
  );
}

/** What the raters page shows beside the form: the values typed and the problems found. */
export interface RatersOptions {
  readonly values?: Readonly<Record<string, string>>;
  readonly problems?: readonly FieldProblem[];
  readonly roleError?: string;
  readonly role?: string;
  /** The name of the rater just added (from the redirect's query). */
  readonly added?: string;
  readonly extraError?: { readonly field: string; readonly text: string };
  /** A problem of the whole nomination (the subject's cap, a full campaign), shown above the form. */
  readonly pageError?: string;
}

/** The roles a subject may ask for feedback: the variant's roles that cannot add participants. */
export const raterRoles = (participation: Participation) =>
  participation.variant.roles.filter((role) => !role.canaddparticipants).map((role) => role.role);

/** The page's words for a nomination that added nobody; undefined for `added`. */
export function nominationProblem(
  participation: Participation,
  outcome: NominationOutcome,
  role: string,
): Pick<RatersOptions, 'roleError' | 'extraError' | 'pageError'> | undefined {
  const s = signupStringsFor(participation.language);
  const texts = participation.variant.texts[participation.language] ?? {};
  if (outcome === 'self') return { extraError: { field: 'email', text: s.raterIsYou } };
  if (outcome === 'present') return { extraError: { field: 'email', text: s.raterPresent } };
  if (outcome === 'role-cap') {
    const label = texts[`role.${role}`] ?? role;
    return { roleError: fill(s.ratersRoleFull, { max: String(ratersPerRole(role)), role: label }) };
  }
  if (outcome === 'full') return { pageError: s.ratersCampaignFull };
  if (outcome === 'subject-cap')
    return { pageError: fill(s.ratersAllFull, { max: String(RATERS_PER_SUBJECT) }) };
  return undefined;
}

/**
 * A 360 subject's raters page: the raters asked (only what the subject typed: never a stored
 * member's name, nor whether anyone has answered) and the form to ask one more, while below the cap.
 */
export function ratersView(
  participation: Participation,
  listed: readonly ListedRater[],
  paths: PagePaths,
  csrf: string,
  options: RatersOptions = {},
): PageView {
  const base = chromeOf(participation);
  const { t } = base;
  const s = signupStringsFor(participation.language);
  const texts = participation.variant.texts[participation.language] ?? {};
  const token = participation.member.token;
  const list = fields(t, s, options.values ?? {}, options.problems ?? [], true, true).map((field) =>
    options.extraError && options.extraError.field === field.name
      ? { ...field, error: options.extraError.text, describedBy: `${field.id}-error` }
      : field,
  );
  const roles = raterRoles(participation).map((role, i) => ({
    id: i === 0 ? 'role' : `role-${i + 1}`,
    value: role,
    label: texts[`role.${role}`] ?? role,
    checked: options.role === role,
  }));
  const errors = [
    ...list.flatMap((field) => (field.error ? [{ href: `#${field.id}`, text: field.error }] : [])),
    ...(options.roleError ? [{ href: '#role', text: options.roleError }] : []),
    ...(options.pageError ? [{ href: '#raters-add', text: options.pageError }] : []),
  ];
  const raters = listed.map((rater) => ({
    name: rater.name,
    email: rater.email,
    role: texts[`role.${rater.role}`] ?? rater.role,
  }));
  const canAdd = raters.length < RATERS_PER_SUBJECT;
  return {
    template: 'raters',
    model: {
      ...base,
      s,
      title: s.ratersTitle,
      backHref: paths.q(token),
      errors: errors.length > 0 ? errors : undefined,
      added: options.added === undefined ? undefined : fill(s.ratersAdded, { name: isolate(options.added) }),
      raters,
      canAdd,
      pageError: options.pageError,
      allFull: canAdd ? undefined : fill(s.ratersAllFull, { max: String(RATERS_PER_SUBJECT) }),
      action: paths.q(token, '/raters'),
      csrf,
      fields: list,
      roleError: options.roleError,
      roles,
      questionnaireHref: paths.q(token),
    },
  };
}

/** A nomination form as read: the rater to ask, or what the page says back (`problem`). */
export type Nomination =
  | { readonly value: SignupForm; readonly role: string; readonly problem?: undefined }
  | { readonly problem: RatersOptions };

/**
 * Reads a raters form: names and e-mail as at sign-up, one of the rater roles, and not the
 * subject's own address. Nothing is asked of the database: the caps are the service's.
 */
export function readNomination(
  participation: Participation,
  form: Readonly<Record<string, unknown>>,
): Nomination {
  const { value, problems } = checkSignupForm(form, true);
  const role =
    typeof form.role === 'string' && raterRoles(participation).includes(form.role) ? form.role : undefined;
  const values = { ...value };
  if (problems.length > 0 || !role) {
    const roleError = role ? undefined : signupStringsFor(participation.language).roleMissing;
    return { problem: { values, problems, role, ...(roleError ? { roleError } : {}) } };
  }
  if (caseFold(value.email) === caseFold(participation.member.email))
    return { problem: { values, role, ...nominationProblem(participation, 'self', role) } };
  return { value, role };
}
