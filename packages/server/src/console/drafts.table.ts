/** A wizard's answers between its pages, bound to the console session that gave them. */
export interface ConsoleDraftTable {
  id: string;
  session_id_hash: string;
  /** Which wizard: `campaign`. One draft of a kind per session. */
  kind: string;
  /** JSON object of the answers (drafts.repository.ts holds its codec). */
  data: string;
  created: string;
  updated: string;
}
