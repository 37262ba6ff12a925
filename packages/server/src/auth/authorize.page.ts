import type { Config } from '../config.js';
import { renderPage } from '../pages/render.js';
import { fill, stringsFor } from '../pages/strings.js';
import { questionnairePrefix } from '../questionnaire/page-kit.js';
import type { AuthorizeParams } from './authorize.service.js';
import { isAdminScope, type Role } from './scope-rules.js';

/**
 * The words of the sign-in pages. Their readers are platform users, not participants, so English
 * only; the layout's own words (skip link, "There is a problem", "Error:") come from `stringsFor`.
 */
const SIGN_IN = {
  serviceName: 'Assay',
  title: 'Sign in',
  heading: 'Sign in to allow {client}',
  intro: '{client} asks to use Assay on your behalf, with access to:',
  adminOnly: '{scope} (admins only)',
  email: 'E-mail address',
  password: 'Password',
  approve: 'Sign in and allow',
  allow: 'Allow',
  signedInAs: 'You are signed in as {email}. Another account? Enter its e-mail address and password instead.',
  deny: 'Deny',
  cannotSignIn: 'Cannot sign in',
  expiredTitle: 'The sign-in form has expired',
  expiredBody:
    'For your security the form could not be sent, and nothing was changed. This happens when the page was open for a long time, or when your browser does not keep cookies for this site.',
  backToSignIn: 'Go back to the sign-in page',
  registered:
    'This application registered itself with Assay: its name, {client}, was chosen by the application and has not been checked. Allow it only if you started connecting it just now. The first person to allow it becomes its owner, who can delete it in the console.',
} as const;

const t = stringsFor('enUS');

/**
 * Where the sign-in pages load the stylesheet from, and the origin their style-src must allow
 * besides 'self' (none when the stylesheet is on the page's own origin).
 *
 * The stylesheet is served by this same process at `{questionnaire path}/assets/assay.css`, the
 * path the participant pages link. In the default configuration the questionnaire URL is the public
 * URL, so the relative path is on the sign-in page's own origin and 'self' allows it. When
 * ASSAY_QUESTIONNAIRE_URL names another origin, the page links the absolute URL on that origin
 * instead of the same path on its own: the questionnaire URL is the one address where the instance
 * is known to serve the stylesheet (a proxy that gives the participant pages their own host routes
 * that path there), while the API's host may be proxied for /api only. Loading a stylesheet from
 * there needs no CORS, sends no Referer (no-referrer) and no cookie of the sign-in page's origin,
 * and only that one origin is added to style-src.
 */
export function signInAssets(config: Pick<Config, 'publicUrl' | 'questionnaireUrl'>): {
  assets: string;
  styleOrigin?: string;
} {
  const path = `${questionnairePrefix(config.questionnaireUrl)}/assets`;
  const questionnaire = new URL(config.questionnaireUrl);
  if (questionnaire.origin === new URL(config.publicUrl).origin) return { assets: path };
  return {
    assets: new URL(path, questionnaire).toString(),
    styleOrigin: questionnaire.origin,
  };
}

const layout = (title: string) => ({ t, s: SIGN_IN, title, serviceName: SIGN_IN.serviceName });

/** The sign-in and approval page of the Authorization Code flow. */
export function signInPage(
  input: {
    clientName: string;
    /** The client registered itself (RFC 7591): its name is its own, unchecked. */
    registered?: boolean;
    scopes: string[];
    params: AuthorizeParams;
    csrf: string;
    error?: string;
    email?: string;
    /** The e-mail address of the user this browser is signed in as: no password asked. */
    signedInAs?: string;
    /** That user's role: the families only an admin may use are marked for anyone else. */
    role?: Role;
  },
  assets: string,
): string {
  return renderPage(
    'signin',
    {
      ...layout(SIGN_IN.title),
      errors: input.error ? [{ href: '#password', text: input.error }] : undefined,
      error: input.error,
      heading: fill(SIGN_IN.heading, { client: input.clientName }),
      intro: fill(SIGN_IN.intro, { client: input.clientName }),
      scopes: input.scopes
        .map((scope) =>
          isAdminScope(scope) && input.role !== 'admin' ? fill(SIGN_IN.adminOnly, { scope }) : scope,
        )
        .join(', '),
      registered: input.registered ? fill(SIGN_IN.registered, { client: input.clientName }) : undefined,
      csrf: input.csrf,
      hidden: hiddenFields(input.params),
      email: input.email ?? '',
      already: input.signedInAs ? fill(SIGN_IN.signedInAs, { email: input.signedInAs }) : undefined,
      s: input.signedInAs ? { ...SIGN_IN, approve: SIGN_IN.allow } : SIGN_IN,
    },
    assets,
  );
}

/** A problem that cannot be sent back to the application. */
export function errorPage(message: string, assets: string): string {
  return renderPage(
    'message',
    { ...layout(SIGN_IN.cannotSignIn), heading: SIGN_IN.cannotSignIn, paragraphs: [message] },
    assets,
  );
}

/**
 * A form without this browser's form token: nothing was done. The link opens the sign-in page
 * again with the same request (a relative query, so on the address the form was posted to).
 */
export function expiredPage(params: AuthorizeParams, assets: string): string {
  const query = new URLSearchParams(hiddenFields(params).map(({ name, value }) => [name, value]));
  return renderPage(
    'message',
    {
      ...layout(SIGN_IN.expiredTitle),
      heading: SIGN_IN.expiredTitle,
      paragraphs: [SIGN_IN.expiredBody],
      link: params.client_id ? { href: `?${query}`, text: SIGN_IN.backToSignIn } : undefined,
    },
    assets,
  );
}

/** The request's parameters, carried through the form (never `repeated`, which is ours). */
function hiddenFields(params: AuthorizeParams): { name: string; value: string }[] {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[0] !== 'repeated' && typeof entry[1] === 'string')
    .map(([name, value]) => ({ name, value }));
}
