import type { Scope } from '@assay/schema';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type Actor, anonymousActor, apiActor } from '../audit/actor.js';
import { AnonymousRefusals } from '../audit/anonymous-refusals.js';
import type { AuditResource } from '../audit/audit.service.js';
import { RefusalRecorder } from '../audit/refusal-recorder.js';
import type { Database } from '../db/database.js';
import { formatDate } from '../util/dates.js';
import { declaredAccess, familiesOf } from './route-guard.js';

/**
 * The audit resource of each scope family. Samples and the audit log are only read (every route is
 * a GET), so a refused change never names them.
 */
const RESOURCES: Record<Scope, AuditResource | undefined> = {
  members: 'member',
  groups: 'group',
  campaigns: 'campaign',
  reports: 'report',
  settings: 'settings',
  samples: undefined,
  webhooks: 'webhook',
  audit: undefined,
};

/** What an id in a path may be to be recorded: ids are short words, anything else is not kept. */
const RECORDABLE_ID = /^[0-9A-Za-z_-]{1,64}$/;

/** An attempted change as its route describes it: the id parameter's name and the action. */
interface RouteChange {
  idParam: string | undefined;
  action: string;
}

/**
 * The action of a route: its method in lowercase, followed by the path after the family (and after
 * the family's id) where the route is a sub-action: `patch` for PATCH /members/:memberid, `post
 * import` for POST /members/import, `post members/:memberid` for adding a member to a group.
 */
export function routeChange(method: string, url: string, prefix: string): RouteChange {
  const rest = url.slice(prefix.length).split('/').filter(Boolean).slice(1);
  const idParam = rest[0]?.startsWith(':') ? rest.shift()?.slice(1) : undefined;
  const verb = method.toLowerCase();
  return { idParam, action: rest.length > 0 ? `${verb} ${rest.join('/')}` : verb };
}

/** Who was refused: the credentials when they were recognised, else an anonymous caller. */
function refusedActor(request: FastifyRequest): Actor {
  // The guard sets the principal once the credentials are known, before it checks their scopes,
  // so that a 403 names who was refused; a 401 has none.
  const principal = request.principal as FastifyRequest['principal'] | null;
  return principal ? apiActor(principal, request.ip) : anonymousActor(request.ip, 'api');
}

/**
 * Records every refused or failed attempt at a change through the API: a request on a route whose
 * declared access is `write` (route-guard.ts) that ends with an HTTP status of 400 or more. Its
 * outcome is `denied` for 401 and 403 (the credentials), `failed` for every other status (the
 * request, or the server). The change itself rolled back with its own entry; this one is written
 * after the response, outside any transaction, by a RefusalRecorder: while the database is
 * unavailable the entry waits in memory, with the time of the refusal, and a failure is logged,
 * never answered. A business failure (HTTP 200 with an ERROR envelope) is no refusal of this kind.
 * A caller without recognised credentials gets at most ANONYMOUS_REFUSALS_RECORDED entries per
 * address a minute (audit/anonymous-refusals.ts): the rest are counted in the log, so that a flood
 * of anonymous requests cannot grow the audit log without bound.
 */
export function auditRefusals(
  api: FastifyInstance,
  db: Kysely<Database>,
  prefix: string,
  clock: () => Date,
): void {
  const refusals = new RefusalRecorder(db, api.log);
  const anonymous = new AnonymousRefusals(api.log);
  // Before the database closes (main.ts closes it after the app): one last try, bounded in time.
  api.addHook('onClose', () => {
    anonymous.close();
    return refusals.close();
  });
  /** The hook of a route whose refusals are recorded as changes of `resource`. */
  const recorder =
    (resource: AuditResource) => (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const status = reply.statusCode;
      const url = request.routeOptions.url;
      if (status >= 400 && url !== undefined) {
        const { idParam, action } = routeChange(request.method, url, prefix);
        const value =
          idParam === undefined
            ? undefined
            : (request.params as Record<string, unknown> | undefined)?.[idParam];
        const id = typeof value === 'string' && RECORDABLE_ID.test(value) ? value : null;
        const outcome = status === 401 || status === 403 ? 'denied' : 'failed';
        const actor = refusedActor(request);
        const at = clock();
        if (actor.type !== 'anonymous' || anonymous.admit(request.ip, at)) {
          refusals.record(actor, { resource, id, action, outcome }, formatDate(at));
        }
      }
      done();
    };
  // The hook goes on the routes that change something of a family, and only there: a path no
  // route serves (404, or 405 for another method) attempted nothing, a read changes nothing, and
  // a route without an onResponse hook costs nothing after its answer (one on every route cost
  // GET /members/{id} about 7 % of its throughput).
  api.addHook('onRoute', (route) => {
    if (declaredAccess(route) !== 'write') return;
    const family = familiesOf(route.config?.guard)[0];
    const resource = family === undefined ? undefined : RESOURCES[family];
    if (resource === undefined) return;
    const existing = route.onResponse ?? [];
    route.onResponse = [...(Array.isArray(existing) ? existing : [existing]), recorder(resource)];
  });
}
