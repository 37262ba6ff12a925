import type { CampaignDetail } from '@assay/schema';
import { fill } from '../../pages/strings.js';
import type { CampaignRetentionView } from '../../retention/retention.service.js';
import { campaignStrings } from '../campaign-strings.js';
import { consoleNumber } from '../format.js';
import { retentionStrings } from '../retention-strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

const href = (campaignId: string) => `/console/campaigns/${campaignId}/retention`;

/** What applies to the campaign, in words: its own days, the instance's, or kept. */
export function retentionText(viewer: Viewer, retention: CampaignRetentionView): string {
  const r = retentionStrings(viewer.language);
  const days = (n: number) => consoleNumber(viewer.language, n);
  if (retention.own !== null && retention.own === retention.effective)
    return fill(r.own, { days: days(retention.own) });
  return retention.effective === null ? r.kept : fill(r.instance, { days: days(retention.effective) });
}

/** The retention's row among the campaign page's settings, with its Change link. */
export function retentionSetting(viewer: Viewer, campaignId: string, retention: CampaignRetentionView) {
  return {
    key: 'retention',
    label: retentionStrings(viewer.language).label,
    value: retentionText(viewer, retention),
    href: href(campaignId),
  };
}

/**
 * The form of a campaign's own retention: one field of days, empty to follow the instance. It is
 * drawn by the settings' template, so it looks and behaves as every other setting's page.
 */
export function retentionFormView(
  viewer: Viewer,
  campaign: CampaignDetail,
  retention: CampaignRetentionView,
  form: { value?: string; error?: string } = {},
): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const s = campaignStrings(viewer.language);
  const r = retentionStrings(viewer.language);
  const id = 'setting-retention';
  const hint =
    retention.instance === null
      ? r.hintKept
      : fill(r.hintShorter, { days: consoleNumber(viewer.language, retention.instance) });
  const campaignHref = `/console/campaigns/${campaign.campaignid}`;
  return {
    template: 'console/campaign-setting',
    model: {
      ...base,
      s,
      title: fill(s.changeTitle, { field: r.label }),
      heading: r.label,
      campaignName: campaign.name || campaign.alias,
      action: href(campaign.campaignid),
      backHref: campaignHref,
      cancelHref: `${campaignHref}#settings`,
      field: {
        id,
        name: 'value',
        label: r.label,
        hint,
        error: form.error,
        errorHidden: base.t.errorHidden,
        value: form.value ?? (retention.own === null ? '' : String(retention.own)),
        describedBy: [`${id}-hint`, form.error ? `${id}-error` : ''].filter(Boolean).join(' '),
        type: 'text',
        textarea: false,
      },
      errors: form.error ? [{ href: `#${id}`, text: form.error }] : undefined,
    },
  };
}
