import { expect } from 'vitest';
import { email, type Instance } from '../helpers/instance.js';

export const PAST = '2026-01-01T09:00:00+00:00';
export const FUTURE = '2099-01-01T09:00:00+00:00';

/** A campaign made through the API; answers its id. */
export async function makeCampaign(
  instance: Instance,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const response = await instance.call('POST', '/campaigns', {
    body: { name: 'Team scan', variant: 'teamscan', start: PAST, ...fields },
  });
  expect(response.json.status, response.body).toBe('OK');
  return response.json.data.campaignid as string;
}

/** Members made through the API; answers their ids. */
export async function makeMembers(
  instance: Instance,
  count: number,
  fields: (i: number) => Record<string, unknown> = () => ({}),
): Promise<string[]> {
  const response = await instance.call('POST', '/members/import', {
    body: {
      members: Array.from({ length: count }, (_, i) => ({
        email: email(`p${i}`),
        firstname: `First${i}`,
        lastname: `Last${i}`,
        ...fields(i),
      })),
    },
  });
  expect(response.json.status, response.body).toBe('OK');
  return response.json.data.created as string[];
}

/** Adds members to a campaign through the API. */
export async function addToCampaign(instance: Instance, campaignId: string, memberids: string[]) {
  const response = await instance.call('POST', `/campaigns/${campaignId}/members`, { body: { memberids } });
  expect(response.json.data.added).toHaveLength(memberids.length);
}

export const outboxCount = async (instance: Instance, campaignId: string) =>
  Number(
    (
      await instance.db.kysely
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', '=', campaignId)
        .executeTakeFirstOrThrow()
    ).n,
  );
