import { userInfo } from 'node:os';

/**
 * Who made a change, and through which door: every audited change is given one (audit.service.ts).
 * - `user`: a person signed in to the console (`id` is the user's id);
 * - `client`: an OAuth client's bearer token or Basic credentials (`id` the client id, `userId` its owner);
 * - `apikey`: an API key (`id` the key's id, `userId` its owner);
 * - `member`: a participant through their questionnaire link (`id` the member's id);
 * - `cli`: the command line (`id` the operating-system user who ran it);
 * - `system`: the scheduler and the delivery workers;
 * - `anonymous`: a public page that changes something before anyone is known (a sign-up form).
 */
export type ActorType = 'user' | 'client' | 'apikey' | 'member' | 'cli' | 'system' | 'anonymous';

/** The door a change came through. */
export type Channel = 'api' | 'console' | 'cli' | 'participant' | 'scheduler' | 'oauth';

export interface Actor {
  readonly type: ActorType;
  readonly id: string | null;
  /** The platform user the actor acts for, when there is one. */
  readonly userId: string | null;
  readonly channel: Channel;
  /** The caller's network address (none for the command line and the scheduler). */
  readonly address: string | null;
}

/** The credentials an API call was made with (auth/guard.ts's Principal carries them). */
export interface Credential {
  readonly kind: 'client' | 'apikey';
  readonly id: string;
}

/** An API caller: the client or key it authenticated with, acting for its owner. */
export function apiActor(
  principal: { userId: string; credential: Credential },
  address: string | null,
  channel: Channel = 'api',
): Actor {
  return {
    type: principal.credential.kind,
    id: principal.credential.id,
    userId: principal.userId,
    channel,
    address,
  };
}

/** A person signed in to the console. */
export function consoleActor(userId: string, address: string | null): Actor {
  return { type: 'user', id: userId, userId, channel: 'console', address };
}

/** A participant on their questionnaire pages. */
export function participantActor(memberId: string, address: string | null): Actor {
  return { type: 'member', id: memberId, userId: null, channel: 'participant', address };
}

/** A public page that changes something for someone not yet known (a sign-up). */
export function anonymousActor(address: string | null, channel: Channel = 'participant'): Actor {
  return { type: 'anonymous', id: null, userId: null, channel, address };
}

/** The scheduler and the background workers. */
export const SYSTEM_ACTOR: Actor = Object.freeze({
  type: 'system',
  id: 'scheduler',
  userId: null,
  channel: 'scheduler',
  address: null,
});

let cliUser: string | undefined;

/** The command line, as the operating-system user who ran it. */
export function cliActor(): Actor {
  if (cliUser === undefined) {
    try {
      cliUser = userInfo().username;
    } catch {
      // A user id with no passwd entry (some containers): the environment's word, else the uid.
      cliUser = process.env.USER ?? process.env.LOGNAME ?? `uid:${process.getuid?.() ?? 'unknown'}`;
    }
  }
  return { type: 'cli', id: cliUser, userId: null, channel: 'cli', address: null };
}
