import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as foundation from './migrations/20261123T1000-foundation.js';
import * as oauthCodes from './migrations/20261123T1100-oauth-codes.js';
import * as changeNotifications from './migrations/20261123T1200-change-notifications.js';
import * as foldedKeys from './migrations/20261124T1000-folded-keys.js';
import * as oauthCodeRedirectGiven from './migrations/20261124T1100-oauth-code-redirect-given.js';
import * as campaigns from './migrations/20261125T1000-campaigns.js';
import * as reports from './migrations/20261126T1000-reports.js';
import * as questionnaire from './migrations/20261127T1000-questionnaire.js';
import * as mailLeaseOwner from './migrations/20261128T1000-mail-lease-owner.js';
import * as guessFailures from './migrations/20261128T1200-guess-failures.js';
import * as consoleSessions from './migrations/20261129T1000-console-sessions.js';
import * as consoleDrafts from './migrations/20261129T1100-console-drafts.js';
import * as consoleUploads from './migrations/20261129T1200-console-uploads.js';
import * as consoleReports from './migrations/20261129T1300-console-reports.js';
import * as consoleAccess from './migrations/20261129T1400-console-access.js';
import * as mailOutboxOrder from './migrations/20261129T1500-mail-outbox-order.js';
import * as verbatimReasons from './migrations/20261130T1000-verbatim-reasons.js';
import * as userInvitations from './migrations/20261130T1100-user-invitations.js';
import * as oauthRevokedTokens from './migrations/20261130T1600-oauth-revoked-tokens.js';
import * as webhooks from './migrations/20261130T1700-webhooks.js';
import * as oauthClientRegistration from './migrations/20261201T1000-oauth-client-registration.js';
import * as auditLog from './migrations/20261202T1000-audit-log.js';
import * as campaignRetention from './migrations/20261202T1100-campaign-retention.js';
import * as outboxRetention from './migrations/20261203T1000-outbox-retention.js';
import * as webhookHold from './migrations/20261204T1000-webhook-hold.js';
import * as campaignDueFailures from './migrations/20261205T1000-campaign-due-failures.js';

// Listed here rather than read from the folder, so the compiled build and the tests see the same set.
const MIGRATIONS: Record<string, Migration> = {
  '20261123T1000-foundation': foundation,
  '20261123T1100-oauth-codes': oauthCodes,
  '20261123T1200-change-notifications': changeNotifications,
  '20261124T1000-folded-keys': foldedKeys,
  '20261124T1100-oauth-code-redirect-given': oauthCodeRedirectGiven,
  '20261125T1000-campaigns': campaigns,
  '20261126T1000-reports': reports,
  '20261127T1000-questionnaire': questionnaire,
  '20261128T1000-mail-lease-owner': mailLeaseOwner,
  '20261128T1200-guess-failures': guessFailures,
  '20261129T1000-console-sessions': consoleSessions,
  '20261129T1100-console-drafts': consoleDrafts,
  '20261129T1200-console-uploads': consoleUploads,
  '20261129T1300-console-reports': consoleReports,
  '20261129T1400-console-access': consoleAccess,
  '20261129T1500-mail-outbox-order': mailOutboxOrder,
  '20261130T1000-verbatim-reasons': verbatimReasons,
  '20261130T1100-user-invitations': userInvitations,
  '20261130T1600-oauth-revoked-tokens': oauthRevokedTokens,
  '20261130T1700-webhooks': webhooks,
  '20261201T1000-oauth-client-registration': oauthClientRegistration,
  '20261202T1000-audit-log': auditLog,
  '20261202T1100-campaign-retention': campaignRetention,
  '20261203T1000-outbox-retention': outboxRetention,
  '20261204T1000-webhook-hold': webhookHold,
  '20261205T1000-campaign-due-failures': campaignDueFailures,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** The migrations' names, oldest first. */
export const MIGRATION_NAMES = Object.keys(MIGRATIONS);

/**
 * Brings the schema up to date (or up to `target`, to test a migration on older data); throws with
 * the failing migration's name.
 */
export async function migrateToLatest(db: Kysely<any>, target?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  const failed = results.find((result) => result.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
