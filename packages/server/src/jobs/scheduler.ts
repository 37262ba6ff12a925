import type { Offset } from '@assay/schema';
import { SYSTEM_ACTOR } from '../audit/actor.js';
import { pruneAuditLog } from '../audit/audit-log.service.js';
import { remindable } from '../campaigns/campaign-mail.repository.js';
import { inviteNow, notifyClosed, remindNow } from '../campaigns/campaign-mail.service.js';
import * as repo from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, nowOf } from '../campaigns/campaigns.service.js';
import type { CampaignRow } from '../campaigns/campaigns.table.js';
import { campaignStatus } from '../campaigns/campaigns.wire.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { pruneOutboxes } from '../retention/outbox-retention.service.js';
import { eraseExpired } from '../retention/retention.service.js';
import { formatDate } from '../util/dates.js';
import { OnceADay } from './once-a-day.js';

/** What one tick did. */
export interface TickReport {
  campaigns: number;
  invited: number;
  reminded: number;
  closed: number;
  /** The campaigns that failed, each put off until its retry. */
  failed: number;
}

const DAY_MS = 86_400_000;
/** How long a process holds a claimed campaign before another may take it over (it died). */
const LEASE_MS = 5 * 60_000;
const BATCH = 50;

/** A wire-form moment plus an offset of days or weeks. */
export function addOffset(moment: string, offset: Offset | null): string {
  if (!offset) return moment;
  const days = offset.unit === 'week' ? offset.amount * 7 : offset.amount;
  return formatDate(new Date(Date.parse(moment) + days * DAY_MS));
}

/** When a `fixed` campaign sends its invitations: `start` plus `inviteoffset`. */
export const inviteMoment = (campaign: CampaignRow) =>
  addOffset(campaign.start_at, repo.parseOffset(campaign.inviteoffset));

/** The moment a member's next reminder is due: its last invitation or reminder plus the offset. */
const reminderMoment = (
  member: { dateinvited: string | null; datereminded: string | null },
  offset: Offset,
): string | undefined => {
  const last = member.datereminded ?? member.dateinvited;
  return last === null ? undefined : addOffset(last, offset);
};

/** Where the scheduler reports what failed (the app's logger). */
export interface SchedulerLog {
  error(obj: unknown, msg: string): void;
}

const RETRY_FIRST_MS = 60_000;
const RETRY_MAX_MS = 6 * 3_600_000;

/** How long a campaign waits after its `failures`-th failure in a row: 1 min, doubling, at most 6 h. */
export const campaignRetryMs = (failures: number) =>
  Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);

/**
 * One tick: every campaign whose `due_at` has come is claimed (on PostgreSQL with
 * `FOR UPDATE SKIP LOCKED`, and by a lease on `due_at` on both engines, so two processes never work
 * on one campaign at once), brought up to date (invitations, reminders, the closing notification)
 * and given its next `due_at`. With nothing due, a tick is one indexed query. A campaign that fails
 * stops only itself: the failure is logged with its id, and it is retried after `campaignRetryMs`
 * (counted in `due_failures`, so a restart keeps the wait) while the others go on. A database that
 * cannot be reached ends the tick instead, blaming no campaign (their leases hold them 5 minutes).
 */
export async function tick(deps: CampaignDeps, log?: SchedulerLog): Promise<TickReport> {
  const report: TickReport = { campaigns: 0, invited: 0, reminded: 0, closed: 0, failed: 0 };
  for (;;) {
    const now = nowOf(deps);
    const lease = formatDate(new Date(deps.clock().getTime() + LEASE_MS));
    const claimed = await claim(deps, now, lease);
    for (const id of claimed) {
      report.campaigns += 1;
      try {
        await runCampaign(deps, id, lease, report);
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        report.failed += 1;
        await deferCampaign(deps, id, error, log);
      }
    }
    if (claimed.length < BATCH) return report;
  }
}

async function deferCampaign(deps: CampaignDeps, id: string, error: unknown, log: SchedulerLog | undefined) {
  const at = deps.clock().getTime();
  const retryAt = (failures: number) => formatDate(new Date(at + campaignRetryMs(failures)));
  const failures = await deps.db.transaction().execute((trx) => repo.deferDue(trx, id, retryAt));
  log?.error(
    { err: error, campaignid: id, failures, retryAt: retryAt(failures) },
    'scheduler: a campaign failed; retried later',
  );
}

async function claim(deps: CampaignDeps, now: string, lease: string): Promise<string[]> {
  return deps.db.transaction().execute(async (trx) => {
    const ids = await repo.lockDueCampaigns(trx, deps.dialect, now, BATCH);
    if (ids.length > 0) await repo.setDue(trx, ids, lease);
    return ids;
  });
}

async function runCampaign(deps: CampaignDeps, id: string, lease: string, report: TickReport) {
  let campaign = await repo.findCampaign(deps.db, id);
  if (!campaign) return;
  const failedBefore = campaign.due_failures > 0;
  const now = nowOf(deps);
  const counts = async (row: CampaignRow) =>
    (await repo.statusCounts(deps.db, row.id)).get(row.id) ?? repo.emptyCounts();
  let status = campaignStatus(campaign, await counts(campaign), now);
  const reminderOffset = repo.parseOffset(campaign.reminderoffset);
  if (status === 'active') {
    const inviteDue =
      campaign.autoinvite === 'instant' || (campaign.autoinvite === 'fixed' && inviteMoment(campaign) <= now);
    if (inviteDue) report.invited += await inviteNow(deps, campaign, SYSTEM_ACTOR);
    if (campaign.autoreminder === 1 && reminderOffset && campaign.reminderrepeat) {
      report.reminded += await remindNow(deps, campaign, SYSTEM_ACTOR, {
        due: (member) => (reminderMoment(member, reminderOffset) ?? now) <= now,
      });
    }
    campaign = (await repo.findCampaign(deps.db, id)) ?? campaign;
    status = campaignStatus(campaign, await counts(campaign), now);
  }
  if (status === 'ended' && campaign.closed_notified === null) {
    const row = campaign;
    await deps.db.transaction().execute(async (trx) => {
      report.closed += (await notifyClosed(deps, trx, row, SYSTEM_ACTOR)) > 0 ? 1 : 0;
    });
    deps.mailQueued();
  }
  await repo.releaseDue(deps.db, id, lease, await nextDue(deps, campaign, status, now));
  if (failedBefore) await repo.clearDueFailures(deps.db, id);
}

/** The next moment the campaign needs the scheduler, or null when nothing is scheduled. */
async function nextDue(
  deps: CampaignDeps,
  campaign: CampaignRow,
  status: string,
  now: string,
): Promise<string | null> {
  const moments: string[] = [];
  if (status === 'inactive') moments.push(campaign.start_at);
  if (status !== 'ended') {
    if (campaign.autoinvite === 'fixed' && inviteMoment(campaign) > now) moments.push(inviteMoment(campaign));
    if (campaign.closingtype === 'date' && campaign.end_at !== null) moments.push(campaign.end_at);
    const offset = repo.parseOffset(campaign.reminderoffset);
    if (campaign.autoreminder === 1 && offset && campaign.reminderrepeat) {
      for (const member of await remindable(deps.db, campaign.id, campaign.reminderrepeat)) {
        const moment = reminderMoment(member, offset);
        if (moment !== undefined) moments.push(moment);
      }
    }
  }
  const future = moments.filter((moment) => moment > now);
  return future.length === 0 ? null : future.reduce((a, b) => (a < b ? a : b));
}

/**
 * Runs `tick` every `tickSeconds`, and at once when woken; one tick at a time. After each, the
 * retentions, each doing its work once a day (OnceADay), each failing on its own (a failure of
 * one never holds up the ticks or another): answers and reports (ASSAY_RETENTION_DAYS and the
 * campaigns' own), the audit log (ASSAY_AUDIT_RETENTION_DAYS), and the mails and webhook messages
 * whose delivery ended (ASSAY_OUTBOX_RETENTION_DAYS).
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly retentions: readonly (readonly [string, OnceADay<unknown>])[];
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: CampaignDeps,
    private readonly options: { tickSeconds: number; log?: SchedulerLog },
  ) {
    const { clock, config } = deps;
    this.retentions = [
      ['answers retention', new OnceADay(clock, () => eraseExpired(deps))],
      ['audit retention', new OnceADay(clock, (now) => pruneAuditLog(deps, now, config.auditRetentionDays))],
      [
        'outbox retention',
        new OnceADay(clock, (now) => pruneOutboxes(deps, now, config.outboxRetentionDays)),
      ],
    ];
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Something may be due now: tick soon (a tick already running runs once more). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.run();
  }

  private async run(): Promise<void> {
    try {
      do {
        this.again = false;
        await tick(this.deps, this.options.log);
      } while (this.again && !this.stopped);
    } catch (error) {
      this.options.log?.error({ err: error }, 'scheduler tick failed');
    }
    // The retentions: at most once a day each, after the campaigns' work.
    for (const [name, retention] of this.retentions) {
      try {
        await retention.runIfDue();
      } catch (error) {
        this.options.log?.error({ err: error }, `${name} failed`);
      }
    }
    // Every failure above was caught: the next tick always comes.
    this.running = undefined;
    if (!this.stopped) {
      this.timer = setTimeout(() => this.wake(), this.options.tickSeconds * 1000);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
