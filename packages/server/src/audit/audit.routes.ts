import { AuditEntry, AuditQuery } from '@assay/schema';
import Type from 'typebox';
import type { AppContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { type ApiInstance, responses } from '../http/route-schema.js';
import { listAuditEntries } from './audit-log.service.js';

/** The audit family (docs/audit.md): reading the log; nothing here changes it. */
export async function auditRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/audit',
    {
      config: { guard: 'audit' },
      schema: {
        tags: ['audit'],
        summary: 'Entries of the audit log, newest first; `before` (the last seq read) gives the next page',
        querystring: AuditQuery,
        response: responses(Type.Array(AuditEntry)),
      },
    },
    async (request) => ok(await listAuditEntries(deps.db, request.query)),
  );
}
