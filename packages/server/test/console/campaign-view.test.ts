import type { CampaignDetail, CampaignMemberListItem } from '@assay/schema';
import { describe, expect, it } from 'vitest';
import type { MailRecipients } from '../../src/campaigns/campaign-mail.service.js';
import type { CampaignRow } from '../../src/campaigns/campaigns.table.js';
import {
  addedNotice,
  campaignPageView,
  mailCheckView,
  mailResultView,
  memberFilterOf,
  pageOf,
  progressJson,
  settingPatch,
  settingView,
  subjectsAndRaters,
} from '../../src/console/views/campaign.view.js';
import type { Viewer } from '../../src/console/views/console-view.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';

/** A view model as the tests read it: nested records and lists, checked by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read the models loosely; the assertions check them.
type Model = Record<string, any>;

const variants = loadVariants([builtinVariantsDir()]);
const viewer = (language: Viewer['language'] = 'enUS'): Viewer => ({
  language,
  csrf: 'token',
  path: '/console',
});

const campaign = (fields: Partial<CampaignDetail> = {}): CampaignDetail =>
  ({
    campaignid: 'Camp123456',
    alias: 'spring',
    name: 'Spring',
    description: '',
    start: '2026-01-01T09:00:00+00:00',
    end: null,
    variant: 'teamscan',
    language: 'enUS',
    status: 'active',
    closingtype: 'open',
    autoinvite: 'none',
    autoreminder: false,
    reminderrepeat: null,
    sendmemberconfirmation: false,
    sendreportdelivery: true,
    memberstatuscount: { new: 2, invited: 1, started: 0, completed: 1, specialtotal: 0, specialcompleted: 0 },
    ...fields,
  }) as CampaignDetail;

const member = (id: string, fields: Partial<CampaignMemberListItem> = {}): CampaignMemberListItem =>
  ({
    memberid: id,
    firstname: `F${id}`,
    lastname: `L${id}`,
    email: `${id}@example.test`,
    status: 'new',
    dateinvited: null,
    datestarted: null,
    datecompleted: null,
    countreminded: null,
    extra: null,
    results: [],
    ...fields,
  }) as CampaignMemberListItem;

describe('the campaign view', () => {
  it('reads filters and pages from the query, falling back to all and 1', () => {
    expect(memberFilterOf('completed')).toBe('completed');
    expect(memberFilterOf('nonsense')).toBe('all');
    expect(pageOf('3')).toBe(3);
    expect(pageOf('0')).toBe(1);
    expect(pageOf('-2')).toBe(1);
    expect(pageOf(undefined)).toBe(1);
  });

  it('shows the progress as figures, a bar and a text, in the console language', () => {
    const counts = {
      new: 1000,
      invited: 0,
      started: 0,
      completed: 1000,
      specialtotal: 0,
      specialcompleted: 0,
    };
    const json = progressJson(viewer('nlNL'), counts);
    expect(json.figures).toEqual({ new: '1.000', invited: '0', started: '0', completed: '1.000' });
    expect(json.bar).toEqual([{ kind: 'completed', x: 0, width: 50 }]);
    expect(json.text).toContain('1.000');
  });

  it('pages the members, marks the filter and links settings except the fixed ones', () => {
    const view = campaignPageView(viewer(), {
      campaign: campaign(),
      variant: variants.get('teamscan'),
      members: [
        member('a', {
          status: 'completed',
          token: 'tok123',
          results: { status: 'completed', reportid: 'R1' } as never,
        }),
      ],
      filter: 'completed',
      page: 1,
      failedMails: [],
      questionnaireUrl: 'https://q.example.test',
    });
    const model = view.model as Model;
    expect(view.template).toBe('console/campaign');
    expect(model.filters.find((f: { current: boolean }) => f.current).text).toBe('Completed (1)');
    expect(model.rows[0].report).toBe('Report R1');
    expect(model.rows[0].reportHref).toBe('/console/reports/R1');
    expect(model.rows[0].reportLink).toBe('https://q.example.test/r/tok123');
    expect(model.settings.find((s: { key: string }) => s.key === 'variant').href).toBeUndefined();
    expect(model.settings.find((s: { key: string }) => s.key === 'name').href).toBe(
      '/console/campaigns/Camp123456/settings/name',
    );
    expect(model.pagination).toBeUndefined();
    expect(model.subjects).toBeUndefined();
  });

  it("turns a posted setting into the API's PATCH field", () => {
    expect(settingPatch('name', { value: ' New name ' })).toEqual({ name: 'New name' });
    expect(settingPatch('end', {})).toEqual({ end: null });
    expect(settingPatch('end', { 'end-day': '', 'end-month': '', 'end-year': '', 'end-time': '' })).toEqual({
      end: null,
    });
    expect(
      settingPatch('start', {
        'start-day': '7',
        'start-month': '3',
        'start-year': '2027',
        'start-time': '9:30',
      }),
    ).toEqual({ start: '2027-03-07T09:30:00Z' });
    expect(settingPatch('reminderrepeat', { value: '3' })).toEqual({ reminderrepeat: 3 });
    expect(settingPatch('sendreportdelivery', { value: 'false' })).toEqual({ sendreportdelivery: false });
    expect(settingPatch('closingtype', { value: 'date' })).toEqual({ closingtype: 'date' });
  });

  it('shows an error next to the setting and in the summary', () => {
    const model = settingView(viewer(), campaign(), 'name', { value: '', error: 'name: too short' })
      .model as Model;
    expect(model.errors).toEqual([{ href: '#setting-name', text: 'name: too short' }]);
    expect(model.field.describedBy).toBe('setting-name-error');
  });

  it('groups subjects with their raters in the order of the roles, and says who has asked nobody', () => {
    const { list: subjects } = subjectsAndRaters(viewer(), variants.get('leadership360'), [
      member('s'),
      member('p', { extra: { role: 'peer', subject: 's' } as never, status: 'completed' }),
      member('m', { extra: { role: 'manager', subject: 's' } as never }),
      member('t'),
    ]);
    expect(subjects.map((s) => s.name)).toEqual(['Fs Ls', 'Ft Lt']);
    expect(subjects[0]?.nomination).toBe('2 raters asked (Manager: 1, Peer: 1); 1 completed');
    expect(subjects[0]?.raters.map((r) => r.role)).toEqual(['Peer', 'Manager']);
    expect(subjects[1]?.nomination).toBe('Has not asked anyone for feedback yet');
  });

  it('shows a 360’s subjects 25 a page, the last page for a page past it', () => {
    const everyone = Array.from({ length: 60 }, (_, i) => member(`s${i}`));
    const first = subjectsAndRaters(viewer(), variants.get('leadership360'), everyone);
    expect(first).toMatchObject({ page: 1, pages: 3 });
    expect(first.list).toHaveLength(25);
    const last = subjectsAndRaters(viewer(), variants.get('leadership360'), everyone, 99);
    expect(last).toMatchObject({ page: 3, pages: 3 });
    expect(last.list).toHaveLength(10);
  });

  it('names 50 recipients and counts the rest on the check page; the button names the count', () => {
    const members = Array.from({ length: 37 + 50 }, (_, i) => ({
      id: `c${i}`,
      member_id: `m${i}`,
      token: 't',
      title: '',
      firstname: `F${i}`,
      lastname: 'L',
      email: `m${i}@example.test`,
      extra: null,
      mailconfig: null,
      countreminded: 0,
    }));
    const recipients: MailRecipients = {
      campaign: {} as CampaignRow,
      members,
      preview: { subject: 'Hello', text: 'Body <b>', html: '<p>x</p>' },
    };
    const model = mailCheckView(viewer(), campaign(), 'invite', recipients, 'now').model as Model;
    expect(model.recipients).toHaveLength(50);
    expect(model.more).toBe('and 37 more');
    expect(model.button).toBe('Send 87 invitations');
    expect(model.preview.text).toBe('Body <b>');
    const refused = mailCheckView(
      viewer(),
      campaign(),
      'remind',
      { ...recipients, refused: 'campaign: is ended' },
      'now',
    ).model as Model;
    expect(refused.button).toBeUndefined();
    expect(mailResultView(viewer('frFR'), campaign(), 'remind', 1).model.title).toBe(
      '1 relance mise en file',
    );
    expect(addedNotice('enUS', 3, 2)).toBe('3 members added. 2 not added: the campaign is full');
  });
});
