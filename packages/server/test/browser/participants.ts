import { expect } from 'vitest';
import { email, type Instance } from '../helpers/instance.js';

export const PAST = '2026-01-01T09:00:00+00:00';
export const FUTURE = '2099-01-01T09:00:00+00:00';

export interface Participant {
  campaignid: string;
  memberid: string;
  email: string;
  token: string;
}

/** A campaign made through the API with one member in it (not invited: `invite` does that). */
export async function participant(
  instance: Instance,
  campaign: Record<string, unknown>,
  member: Record<string, unknown> = {},
  extra?: Record<string, unknown>,
): Promise<Participant> {
  const made = await instance.call('POST', '/campaigns', {
    body: { name: 'Autumn scan', start: PAST, sendreportdelivery: true, ...campaign },
  });
  expect(made.json.status, made.body).toBe('OK');
  const campaignid = made.json.data.campaignid as string;
  const address = email('p');
  const created = await instance.call('POST', '/members', {
    body: { email: address, firstname: 'Zoë', lastname: 'Ångström', ...member },
  });
  expect(created.json.status, created.body).toBe('OK');
  const memberid = created.json.data.memberid as string;
  const added = await instance.call('POST', `/campaigns/${campaignid}/members/${memberid}`);
  expect(added.json.status, added.body).toBe('OK');
  if (extra) {
    const patched = await instance.call('PATCH', `/campaigns/${campaignid}/members/${memberid}`, {
      body: { extra },
    });
    expect(patched.json.status, patched.body).toBe('OK');
  }
  const row = await instance.db.kysely
    .selectFrom('campaign_members')
    .select('token')
    .where('campaign_id', '=', campaignid)
    .where('member_id', '=', memberid)
    .executeTakeFirstOrThrow();
  return { campaignid, memberid, email: address, token: row.token };
}

/** Sends the campaign's invitations (the mail worker delivers them). */
export async function invite(instance: Instance, campaignid: string): Promise<void> {
  const invited = await instance.call('POST', `/campaigns/${campaignid}/members/invite`);
  expect(invited.json.status, invited.body).toBe('OK');
}
