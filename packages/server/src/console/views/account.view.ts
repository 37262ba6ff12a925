import { MIN_PASSWORD_LENGTH } from '../../auth/user-rules.js';
import { fill } from '../../pages/strings.js';
import { accountStrings } from '../account-strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** What the account page reports back after a form: a problem with a field, or a notice. */
export type AccountOutcome =
  | { kind: 'current-missing' }
  | { kind: 'current-wrong' }
  | { kind: 'too-short' }
  | { kind: 'wait'; seconds: number }
  | { kind: 'password-changed' }
  | { kind: 'signed-out-others'; count: number };

/** "Your account": details, the password form, the other sessions, the language. */
export function accountView(
  viewer: Viewer,
  input: { sessions: number; outcome?: AccountOutcome },
): ConsoleView {
  const base = chrome(viewer, 'account');
  const a = accountStrings(viewer.language);
  const user = viewer.user;
  const outcome = input.outcome;
  const errorText = !outcome
    ? undefined
    : outcome.kind === 'current-missing'
      ? { field: 'current', text: a.currentMissing }
      : outcome.kind === 'current-wrong'
        ? { field: 'current', text: a.currentWrong }
        : outcome.kind === 'wait'
          ? { field: 'current', text: fill(a.wait, { seconds: outcome.seconds }) }
          : outcome.kind === 'too-short'
            ? { field: 'next', text: fill(a.tooShort, { min: MIN_PASSWORD_LENGTH }) }
            : undefined;
  const notice =
    outcome?.kind === 'password-changed'
      ? a.passwordChanged
      : outcome?.kind === 'signed-out-others'
        ? fill(a.signedOutOthers, { count: outcome.count })
        : undefined;
  return {
    template: 'console/account',
    model: {
      ...base,
      a,
      title: a.title,
      errors: errorText ? [{ href: `#${errorText.field}`, text: errorText.text }] : undefined,
      currentError: errorText?.field === 'current' ? errorText.text : undefined,
      nextError: errorText?.field === 'next' ? errorText.text : undefined,
      nextHint: fill(a.nextHint, { min: MIN_PASSWORD_LENGTH }),
      notice,
      name: user ? [user.firstname, user.lastname].filter(Boolean).join(' ') : '',
      email: user?.email ?? '',
      role: user?.role === 'admin' ? a.admin : a.user,
      sessions: input.sessions > 1 ? fill(a.sessionsCount, { count: input.sessions }) : a.sessionsOnlyThis,
      others: input.sessions > 1,
    },
  };
}
