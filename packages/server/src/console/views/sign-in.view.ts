import { fill } from '../../pages/strings.js';
import { consoleStrings } from '../strings.js';
import { type ConsoleView, chrome, consoleMessage, type Viewer } from './console-view.js';

/** Where a signed-in operator lands: a path of the console on this instance, never another site. */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/console';
  // Only our own absolute paths: `/console` or below it. `//host`, `/\host`, `javascript:`, a
  // scheme or anything with a backslash or control character could lead off the instance.
  if (!/^\/console(?:[/?#]|$)/.test(value)) return '/console';
  if (value.includes('\\') || [...value].some((ch) => ch < ' ' || ch === '\u007f')) return '/console';
  return value;
}

export type SignInProblem = { kind: 'wrong' } | { kind: 'wait'; seconds: number } | { kind: 'no-password' };

/** The console's sign-in page (the Authorization Code flow's page is the same template). */
export function signInView(
  viewer: Viewer,
  input: { next: string; csrf: string; email?: string; problem?: SignInProblem },
): ConsoleView {
  const base = chrome(viewer);
  const { c } = base;
  const problem = input.problem;
  const error = !problem
    ? undefined
    : problem.kind === 'wrong'
      ? c.signInWrong
      : problem.kind === 'wait'
        ? fill(c.signInWait, { seconds: problem.seconds })
        : c.signInNoPassword;
  return {
    template: 'signin',
    model: {
      ...base,
      // The form's own token (no session yet): the double-submit cookie's.
      csrf: input.csrf,
      title: c.signInTitle,
      heading: c.signInTitle,
      intro: c.signInIntro,
      s: { email: c.email, password: c.password, approve: c.signIn },
      hidden: [{ name: 'next', value: input.next }],
      email: input.email ?? '',
      error,
      errors: error ? [{ href: '#password', text: error }] : undefined,
      help: c.signInHelp,
    },
  };
}

/**
 * The one-time sign-in link's page: who it signs in, and a button. Opening the link changes
 * nothing (a mail or chat scanner fetches every link it sees); the button's POST uses the link.
 */
export function signInLinkView(
  viewer: Viewer,
  input: { action: string; csrf: string; email: string },
): ConsoleView {
  const base = chrome(viewer);
  const { c } = base;
  return {
    template: 'console/sign-in-link',
    model: {
      ...base,
      // No session yet: the double-submit cookie's token, as the sign-in page's.
      csrf: input.csrf,
      title: c.signInTitle,
      heading: c.signInTitle,
      intro: fill(c.signInLinkIntro, { email: input.email }),
      action: input.action,
    },
  };
}

/** What a one-time link's page shows a caller at the sign-in pages' guessing limit (answered 429). */
export function waitView(viewer: Viewer, seconds: number): ConsoleView {
  const c = consoleStrings(viewer.language);
  return consoleMessage(viewer, c.waitTitle, [fill(c.waitBody, { seconds })]);
}
