/**
 * The paths that carry a secret in a segment: whoever holds the URL holds what it opens, so a log
 * line or any other record of a URL shows the segment as `[token]` or `[secret]`. The one list:
 * every place that writes a URL down goes through `withoutSecrets`, and a route whose path has a
 * `:token` or `:secret` parameter outside the list stops start-up (`checkSecretRoute`).
 */
export const SECRET_PATHS = [
  // The participant's questionnaire and personal report, under any pages prefix.
  { before: '/q/', shown: '[token]' },
  { before: '/r/', shown: '[token]' },
  // The console's one-time links: the first start's sign-in link and a user's invitation.
  { before: '/console/sign-in/link/', shown: '[secret]' },
  { before: '/console/invitation/', shown: '[secret]' },
] as const;

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A segment after one of the paths, whatever it holds (a guess of any shape is kept out too), up to
 * the next `/`, `?` or `#`; the case ignored, since a path that differs only in case may still
 * reach a log as a 404.
 */
const SECRET_SEGMENT = new RegExp(
  `(${SECRET_PATHS.map(({ before }) => literally(before)).join('|')})[^/?#]+`,
  'gi',
);

const shownAfter = new Map<string, string>(SECRET_PATHS.map(({ before, shown }) => [before, shown]));

/** A URL as a log may show it: `/q/<token>/page/2` becomes `/q/[token]/page/2`. */
export function withoutSecrets(url: string): string {
  return url.replace(
    SECRET_SEGMENT,
    (_match, before: string) => `${before}${shownAfter.get(before.toLowerCase()) ?? '[secret]'}`,
  );
}

/** The parameters whose value is a secret wherever they show in a path. */
const SECRET_PARAM = /:(token|secret)(?=\/|$)/g;

/**
 * Stops start-up for a route whose `:token` or `:secret` parameter the list does not keep out of
 * the logs: its path, with a sample value for each, must come out of `withoutSecrets` without it.
 */
export function checkSecretRoute(route: { method: string | string[]; url: string }): void {
  const sample = 'SECRETSAMPLEVALUE';
  const filled = route.url.replace(SECRET_PARAM, sample);
  if (filled !== route.url && withoutSecrets(filled).includes(sample)) {
    throw new Error(
      `${[route.method].flat().join(',')} ${route.url} carries a secret in its path that the logs would show: add its path to SECRET_PATHS (http/secret-paths.ts)`,
    );
  }
}
