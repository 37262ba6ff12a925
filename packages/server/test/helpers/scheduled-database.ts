import { loadConfig } from '../../src/config.js';
import type { Db, Dialect } from '../../src/db/database.js';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { migratedDatabase } from './instance.js';

/** A migrated database with the real Scheduler on a clock the test moves, ticking only when asked. */
export interface ScheduledDatabase {
  db: Db;
  /** What the scheduler logged as failed. */
  errors: unknown[];
  /** One scheduler run (a tick, then the retentions that are due), to its end. */
  runOnce(): Promise<void>;
  close(): Promise<void>;
}

export async function scheduledDatabase(
  dialect: Dialect,
  env: NodeJS.ProcessEnv,
  /** The scheduler's clock, in milliseconds since the epoch: the test moves it between runs. */
  clock: { readonly now: number },
): Promise<ScheduledDatabase> {
  const { db, close } = await migratedDatabase(dialect);
  const errors: unknown[] = [];
  const scheduler = new Scheduler(
    {
      db: db.kysely,
      dialect,
      variants: loadVariants([builtinVariantsDir()]),
      config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
      clock: () => new Date(clock.now),
      mailQueued: () => {},
      campaignsDue: () => {},
    },
    // Ticks only when the test runs one.
    { tickSeconds: 86_400, log: { error: (obj) => errors.push(obj) } },
  );
  return {
    db,
    errors,
    runOnce: async () => {
      scheduler.start();
      await scheduler.stop();
    },
    close: async () => {
      await scheduler.stop();
      await close();
    },
  };
}
