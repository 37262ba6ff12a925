import { describe, expect, it } from 'vitest';
import {
  memberExtraText,
  parseMemberExtra,
  parseResults,
  resultsText,
} from '../../src/campaigns/campaign-members.repository.js';
import {
  campaignConfigText,
  offsetText,
  parseCampaignConfig,
  parseOffset,
} from '../../src/campaigns/campaigns.repository.js';
import { jsonObjectColumn } from '../../src/db/json-columns.js';
import type { MailParams } from '../../src/mail/mail.types.js';
import { mailParamsText, parseMailParams } from '../../src/mail/outbox.repository.js';

// The JSON column codecs: what each answers for the texts a column can hold, old rows included.

describe('campaigns.inviteoffset / reminderoffset', () => {
  it('round-trips an offset and stores none as NULL', () => {
    const offset = { amount: 3, unit: 'day' } as const;
    expect(parseOffset(offsetText(offset))).toEqual(offset);
    expect(offsetText(null)).toBeNull();
    expect(offsetText(undefined)).toBeNull();
    expect(parseOffset(null)).toBeNull();
  });

  it('reads unreadable or non-object text as no offset', () => {
    expect(parseOffset('{"amount":')).toBeNull();
    expect(parseOffset('null')).toBeNull();
    expect(parseOffset('[1]')).toBeNull();
  });
});

describe('campaigns.config', () => {
  it('round-trips the settings and reads anything else as none', () => {
    const config = { selfregistration: { signup: true }, minparticipants: 4 };
    expect(parseCampaignConfig(campaignConfigText(config))).toEqual(config);
    for (const text of [null, '', '{}', '[]', 'null', '"x"', '{broken'])
      expect(parseCampaignConfig(text)).toEqual({});
  });
});

describe('campaign_members.extra / results', () => {
  it('stores an empty extra as NULL and reads NULL, arrays and broken text as none', () => {
    expect(memberExtraText({})).toBeNull();
    expect(parseMemberExtra(memberExtraText({ role: 'peer', subject: 'AbCdEf1234' }))).toEqual({
      role: 'peer',
      subject: 'AbCdEf1234',
    });
    for (const text of [null, '[]', 'null', '{broken']) expect(parseMemberExtra(text)).toBeNull();
  });

  it('round-trips the results of a completion', () => {
    expect(parseResults(resultsText({ status: 'completed', reportid: 'r1' }))).toEqual({
      status: 'completed',
      reportid: 'r1',
    });
    expect(parseResults(null)).toBeNull();
  });
});

describe('mail_outbox.params', () => {
  it('round-trips, and refuses text that is not JSON (the mail is then not renderable)', () => {
    const params = { template: 'campaign_invitation', language: 'en' } as unknown as MailParams;
    expect(parseMailParams(mailParamsText(params))).toEqual(params);
    expect(() => parseMailParams('{')).toThrow();
  });
});

describe('the wire view of an object column', () => {
  it('shows an empty, unreadable or non-object column as [], as the spec serialises empty objects', () => {
    for (const text of [null, '', '{}', '[]', 'null', '5', '{broken'])
      expect(jsonObjectColumn(text)).toEqual([]);
    expect(jsonObjectColumn('{"a":1}')).toEqual({ a: 1 });
  });
});
