import { Type } from 'typebox';
import { listAuditEntriesBy } from '../audit/audit-log.service.js';
import { platformUsers } from '../auth/auth.service.js';
import type { AppContext } from '../context.js';
import type { ApiInstance } from '../http/route-schema.js';
import { formatDate } from '../util/dates.js';
import { showConsole, viewerOf } from './console-kit.js';
import { AUDIT_PAGE_SIZE, type AuditPageQuery, auditView } from './views/audit.view.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
const RESOURCE_TYPE = /^[a-z_]{1,32}$/;

/** A `YYYY-MM-DD` of the form as midnight UTC; anything else is no filter (as on the reports page). */
function dayStart(value: string | undefined): Date | undefined {
  if (!value || !DAY.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? undefined : date;
}

/** The audit log in the console (docs/audit.md), for admins only: it names every operator's actions. */
export async function auditLogRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/audit',
    {
      config: { console: 'admin' },
      schema: {
        querystring: Type.Object({
          since: Type.Optional(Type.String({ maxLength: 32 })),
          until: Type.Optional(Type.String({ maxLength: 32 })),
          actor: Type.Optional(Type.String({ maxLength: 255 })),
          type: Type.Optional(Type.String({ maxLength: 64 })),
          id: Type.Optional(Type.String({ maxLength: 255 })),
          before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
        }),
      },
    },
    async (request, reply) => {
      const since = dayStart(request.query.since);
      const until = dayStart(request.query.until);
      const type = request.query.type?.trim();
      const query: AuditPageQuery = {
        since: since ? request.query.since : undefined,
        until: until ? request.query.until : undefined,
        actor: request.query.actor?.trim() || undefined,
        type: type && RESOURCE_TYPE.test(type) ? type : undefined,
        id: request.query.id?.trim() || undefined,
      };
      const before = request.query.before === undefined ? undefined : Number(request.query.before);
      const [entries, users] = await Promise.all([
        listAuditEntriesBy(deps.db, {
          since: since && formatDate(since),
          // The day given is included: entries before the next midnight.
          until: until && formatDate(new Date(until.getTime() + DAY_MS)),
          actorId: query.actor,
          resourceType: query.type,
          resourceId: query.id,
          beforeSeq: before,
          limit: AUDIT_PAGE_SIZE + 1,
        }),
        platformUsers(deps.db),
      ]);
      return showConsole(
        reply,
        200,
        auditView(viewerOf(request), {
          query,
          entries,
          before,
          emails: new Map(users.map((user) => [user.id, user.email])),
        }),
      );
    },
  );
}
