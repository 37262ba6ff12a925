import type { Kysely } from 'kysely';
import { pruneAuditLog } from '../audit/audit-log.service.js';
import type { Database, Dialect } from '../db/database.js';

const DAY_MS = 86_400_000;

/**
 * The audit log's retention, run by the scheduler: at most once a day per process, the last run
 * remembered in memory, so that every other tick costs one comparison. Several processes each
 * prune once a day; after the first, the others find nothing and record nothing.
 */
export class AuditRetention {
  private lastRun: number | undefined;

  constructor(
    private readonly deps: { db: Kysely<Database>; dialect: Dialect; clock: () => Date; days: number },
  ) {}

  /** Prunes when a day has passed since this process last did; answers the entries removed, else undefined. */
  async runIfDue(): Promise<number | undefined> {
    const now = this.deps.clock();
    if (this.lastRun !== undefined && now.getTime() - this.lastRun < DAY_MS) return undefined;
    // Taken before the run: a failing prune is tried again the next day, not on every tick.
    this.lastRun = now.getTime();
    return pruneAuditLog(this.deps, now, this.deps.days);
  }
}
