import { describe, expect, it } from 'vitest';
import { jwkText, parseJwk, parseRedirectUris, redirectUrisText } from '../../src/auth/auth.repository.js';
import {
  memberExtraText,
  memberMailConfigText,
  memberTagsText,
  parseMemberExtra,
  parseMemberMailConfig,
  parseMemberTags,
  parseResults,
  resultsText,
} from '../../src/campaigns/campaign-members.repository.js';
import {
  adminsText,
  campaignConfigText,
  mailConfigText,
  offsetText,
  parseAdmins,
  parseCampaignConfig,
  parseMailConfig,
  parseOffset,
} from '../../src/campaigns/campaigns.repository.js';
import { jsonObjectColumn } from '../../src/db/json-columns.js';
import type { MailParams } from '../../src/mail/mail.types.js';
import { mailParamsText, parseMailParams } from '../../src/mail/outbox.repository.js';
import { parseAnswers } from '../../src/questionnaire/questionnaire.repository.js';
import {
  parseReportConfig,
  parseReportObject,
  parseTags,
  ReportColumnCache,
  reportObjectText,
  tagsText,
} from '../../src/reports/reports.repository.js';

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
    expect(parseResults(resultsText(null))).toBeNull();
  });

  it('round-trips tags and mailconfig; NULL mailconfig is none, an empty one []', () => {
    expect(parseMemberTags(memberTagsText(['a', 'b']))).toEqual(['a', 'b']);
    for (const text of ['[]', '{}', 'null', '{broken']) expect(parseMemberTags(text)).toEqual([]);
    expect(parseMemberMailConfig(memberMailConfigText({ invitation: 'x' }))).toEqual({ invitation: 'x' });
    expect(memberMailConfigText(null)).toBeNull();
    expect(parseMemberMailConfig(null)).toBeNull();
    expect(parseMemberMailConfig(memberMailConfigText([]))).toEqual([]);
  });
});

describe('campaigns.admins / mailconfig', () => {
  it('round-trips admins, keeping the null entries of legacy rows, and reads anything else as none', () => {
    expect(parseAdmins(adminsText(['m1', null]))).toEqual(['m1', null]);
    for (const text of ['{}', 'null', '{broken']) expect(parseAdmins(text)).toEqual([]);
  });

  it('stores a mailconfig that is no object as {} and shows an empty one as []', () => {
    expect(parseMailConfig(mailConfigText({ reminder: 'r' }))).toEqual({ reminder: 'r' });
    expect(mailConfigText(null)).toBe('{}');
    expect(parseMailConfig(mailConfigText([]))).toEqual([]);
  });
});

describe('campaign_members.answers', () => {
  it('keeps number and string answers and reads anything else as none', () => {
    expect(parseAnswers('{"q1":3,"q2":"text","q3":null,"q4":[1]}')).toEqual({ q1: 3, q2: 'text' });
    for (const text of ['[]', 'null', '"x"', '{broken']) expect(parseAnswers(text)).toEqual({});
  });
});

describe('reports.raw / processed / config / tags', () => {
  it('round-trips the object columns and reads anything else as {}', () => {
    const processed = { E: 55, 'E.1': 'x' };
    expect(parseReportObject(reportObjectText(processed))).toEqual(processed);
    for (const text of ['', '[]', 'null', '5', '{broken']) expect(parseReportObject(text)).toEqual({});
  });

  it('shows config as the wire does, [] when empty, and keeps only the string tags', () => {
    expect(parseReportConfig('{}')).toEqual([]);
    expect(parseReportConfig('{"language":"de"}')).toEqual({ language: 'de' });
    expect(parseTags(tagsText(['x', 'y']))).toEqual(['x', 'y']);
    expect(parseTags('["x",1,null]')).toEqual(['x']);
    for (const text of ['', '[]', '{}', '{broken']) expect(parseTags(text)).toEqual([]);
  });

  it('parses each distinct text of a list once', () => {
    const cache = new ReportColumnCache();
    expect(cache.config('{"a":1}')).toBe(cache.config('{"a":1}'));
    expect(cache.tags('["t"]')).toBe(cache.tags('["t"]'));
  });
});

describe('oauth_clients.redirect_uris / signing_keys JWKs', () => {
  it('round-trips', () => {
    expect(parseRedirectUris(redirectUrisText(['https://a.example/cb']))).toEqual(['https://a.example/cb']);
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: 'abc' };
    expect(parseJwk(jwkText(jwk))).toEqual(jwk);
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
