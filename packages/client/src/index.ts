export type {
  AccessTokenCredentials,
  ApiKeyCredentials,
  BasicCredentials,
  ClientCredentials,
  Credentials,
} from './auth.js';
export { AssayClient, createClient, type RequestOptions } from './client.js';
export { AssayError, type CallInfo, HttpError } from './errors.js';
export type { Audit } from './families/audit.js';
export type { Campaigns, DryRun } from './families/campaigns.js';
export type { GroupNode, Groups } from './families/groups.js';
export type { MemberCsvImportOptions, Members } from './families/members.js';
export { type ParsedReportAnswers, parseReportData, type Reports } from './families/reports.js';
export type { Samples } from './families/samples.js';
export type { Settings } from './families/settings.js';
export type { DupecheckResult } from './families/shared.js';
export type { Webhooks } from './families/webhooks.js';
export type { PdfFile } from './pdf.js';
export { formatDate, parseDate, toBoolean } from './tolerant.js';
export { type AssayClientOptions, apiBase, type TransportOptions } from './transport.js';
export type * from './types.js';
