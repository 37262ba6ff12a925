/** A campaign's own retention, shorter than the instance's (migration 20261202T1100-campaign-retention). */
export interface CampaignRetentionTable {
  campaign_id: string;
  /** Days after which its answers and personal reports are erased; always at least 1. */
  days: number;
  updated: string;
}
