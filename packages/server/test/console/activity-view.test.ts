import { describe, expect, it } from 'vitest';
import { activityView } from '../../src/console/views/activity.view.js';

describe('the activity timeline’s lines', () => {
  it('says each kind of entry, with counts and dates in the console language', () => {
    const view = activityView('enUS', [
      { kind: 'ends', at: '2026-12-01T09:00:00.000Z', past: false },
      { kind: 'mails-queued', at: '2026-11-20T10:00:00.000Z', stage: 'campaign_reminder', count: 1200 },
      { kind: 'mails-queued', at: '2026-11-19T10:00:00.000Z', stage: 'campaign_invitation', count: 1 },
      { kind: 'mails-queued', at: '2026-11-18T10:00:00.000Z', stage: 'campaign_reportdelivery', count: 2 },
      { kind: 'members-added', at: '2026-11-12T08:00:00.000Z', count: 12 },
      { kind: 'closed', at: '2026-11-11T08:00:00.000Z' },
      { kind: 'created', at: '2026-11-10T08:05:00.000Z', by: 'Ann Lee' },
      { kind: 'created', at: '2026-11-10T08:05:00.000Z' },
    ]);
    expect(view.heading).toBe('Activity');
    expect(view.items.map((item) => item.text)).toEqual([
      'The campaign ends',
      '1,200 reminders queued',
      '1 invitation queued',
      '2 mails queued: Report delivery',
      '12 members added',
      'Campaign closed; the closing notice was queued',
      'Campaign created by ',
      'Campaign created',
    ]);
    expect(view.items[6]).toMatchObject({ name: 'Ann Lee', after: '' });
    expect(view.items[4]).toMatchObject({ date: 'Nov 12, 2026', datetime: '2026-11-12' });
    expect(view.items[6]?.date).toBe('Nov 10, 2026, 08:05 UTC');
  });

  it('speaks the four languages', () => {
    const entry = { kind: 'members-added' as const, at: '2026-11-12T08:00:00.000Z', count: 1000 };
    expect(activityView('nlNL', [entry]).items[0]?.text).toBe('1.000 deelnemers toegevoegd');
    expect(activityView('esES', [entry]).items[0]?.text).toMatch(/^1\.?000 participantes añadidos$/);
    expect(activityView('frFR', [entry]).items[0]?.text).toMatch(/^1\s000 participants ajoutés$/);
    expect(activityView('frFR', []).none).toBe('Il ne s’est encore rien passé pour cette campagne.');
  });
});
