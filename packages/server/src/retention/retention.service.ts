import type { Kysely } from 'kysely';
import { type Actor, SYSTEM_ACTOR } from '../audit/actor.js';
import { type Change, recordChange, recordChanges } from '../audit/audit.service.js';
import { findCampaign } from '../campaigns/campaigns.repository.js';
import { MAX_RETENTION_DAYS } from '../config.js';
import type { Database, Dialect } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { daysBefore, formatDate } from '../util/dates.js';
import { queueEvents } from '../webhooks/events.js';
import * as repo from './retention.repository.js';

/** What the retention needs: the database, the clock and the instance's retention. */
export interface RetentionDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: () => Date;
  config: { readonly retentionDays: number | null };
}

/** What one run erased. */
export interface RetentionReport {
  /** Campaign places whose answers were emptied. */
  answers: number;
  /** Personal reports deleted. */
  reports: number;
}

/**
 * Rows one transaction erases: small enough that thousands of expired members never hold one long
 * transaction (or the SQLite writer) while the questionnaire pages write, large enough that a run
 * over them takes few round trips.
 */
export const RETENTION_BATCH = 200;

const cutoffOf = (deps: Pick<RetentionDeps, 'clock'>, days: number) => daysBefore(deps.clock(), days);

/**
 * Erases the answers and personal reports past their retention: the instance's
 * (`ASSAY_RETENTION_DAYS`) everywhere, then each campaign's own, shorter one over its campaign.
 * Each batch is a transaction of its own that records, in it, an entry per member whose answers
 * went and per report deleted; the first batch that erases anything also records the run's entry
 * (`answers`, `retention`), so a run that erased nothing leaves no entry, and one cut short by a
 * crash still has its entry beside what it did erase. The scheduler calls it once a day.
 */
export async function eraseExpired(
  deps: RetentionDeps,
  actor: Actor = SYSTEM_ACTOR,
): Promise<RetentionReport> {
  const report: RetentionReport = { answers: 0, reports: 0 };
  const scopes: repo.RetentionScope[] = [];
  if (deps.config.retentionDays !== null) scopes.push({ cutoff: cutoffOf(deps, deps.config.retentionDays) });
  for (const own of await repo.campaignRetentions(deps.db)) {
    scopes.push({ cutoff: cutoffOf(deps, Number(own.days)), campaignId: own.campaign_id });
  }
  for (const scope of scopes) {
    await eraseScope(deps, actor, scope, report);
  }
  return report;
}

async function eraseScope(
  deps: RetentionDeps,
  actor: Actor,
  scope: repo.RetentionScope,
  report: RetentionReport,
): Promise<void> {
  for (;;) {
    const places = await repo.expiredPlaces(deps.db, scope, RETENTION_BATCH);
    const reports =
      places.length < RETENTION_BATCH ? await repo.expiredReports(deps.db, scope, RETENTION_BATCH) : [];
    if (places.length === 0 && reports.length === 0) return;
    await deps.db.transaction().execute(async (trx) => {
      const now = formatDate(deps.clock());
      const members = await repo.erasePlaceAnswers(trx, places);
      const deleted = await repo.deletePersonalReports(trx, reports);
      if (members.length + deleted.length === 0) return;
      const changes: Change[] = [
        ...members.map((id): Change => ({ resource: 'answers', id, action: 'retention' })),
        ...deleted.map((row): Change => ({ resource: 'report', id: row.id, action: 'retention' })),
      ];
      if (report.answers + report.reports === 0) {
        changes.unshift({ resource: 'answers', id: null, action: 'retention' });
      }
      await recordChanges(trx, actor, changes, now);
      // Integrators who mirror reports hear of these as of any other deletion.
      await queueEvents(
        trx,
        'report.deleted',
        deleted.map((row) => ({
          reportid: row.id,
          type: 'personal',
          memberid: row.member_id,
          campaignid: row.campaign_id,
        })),
        { now, orderKey: (data) => (data.memberid as string | null) ?? null },
      );
      report.answers += members.length;
      report.reports += deleted.length;
    });
  }
}

/** A campaign's retention as the console and the command line show it. */
export interface CampaignRetentionView {
  /** The campaign's own retention in days, or null. */
  own: number | null;
  /** The instance's (ASSAY_RETENTION_DAYS), or null: kept. */
  instance: number | null;
  /** What applies: the shorter of the two, or null when answers are kept. */
  effective: number | null;
}

export async function campaignRetentionOf(
  deps: Pick<RetentionDeps, 'db' | 'config'>,
  campaignId: string,
): Promise<CampaignRetentionView> {
  if (!(await findCampaign(deps.db, campaignId)))
    throw new BusinessError(`campaign: no campaign ${campaignId}`);
  const own = await repo.campaignRetention(deps.db, campaignId);
  const instance = deps.config.retentionDays;
  const effective = own === null ? instance : instance === null ? own : Math.min(own, instance);
  return { own, instance, effective };
}

/**
 * Reads a number of days as typed in a form or on the command line: a whole number from 1 on, and
 * fewer than the instance's retention (a campaign may only keep answers for a shorter time).
 */
export function parseRetentionDays(raw: string, instance: number | null): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) throw new BusinessError(`days: must be a whole number of days, got "${raw}"`);
  const days = Number(text);
  if (days < 1 || days > MAX_RETENTION_DAYS) {
    throw new BusinessError(`days: must be between 1 and ${MAX_RETENTION_DAYS}, got ${days}`);
  }
  if (instance !== null && days >= instance) {
    throw new BusinessError(
      `days: must be fewer than the instance's retention of ${instance} days (ASSAY_RETENTION_DAYS); a campaign may only shorten it`,
    );
  }
  return days;
}

/**
 * Sets (a number of days) or clears (null) a campaign's own retention, recorded as a change of the
 * campaign's `retention`. The next daily run applies it.
 */
export async function setCampaignRetention(
  deps: Pick<RetentionDeps, 'db' | 'config' | 'clock'>,
  actor: Actor,
  campaignId: string,
  days: string | null,
): Promise<CampaignRetentionView> {
  if (!(await findCampaign(deps.db, campaignId)))
    throw new BusinessError(`campaign: no campaign ${campaignId}`);
  const value = days === null ? null : parseRetentionDays(days, deps.config.retentionDays);
  await deps.db.transaction().execute(async (trx) => {
    const now = formatDate(deps.clock());
    let changed = true;
    if (value === null) changed = await repo.deleteCampaignRetention(trx, campaignId);
    else await repo.upsertCampaignRetention(trx, campaignId, value, now);
    if (changed) {
      await recordChange(
        trx,
        actor,
        { resource: 'campaign', id: campaignId, action: 'update', fields: ['retention'] },
        now,
      );
    }
  });
  return campaignRetentionOf(deps, campaignId);
}
