import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createClient, createUser } from '../../src/auth/auth.service.js';
import { queueCompletionMails } from '../../src/campaigns/campaign-mail.service.js';
import { findCampaign } from '../../src/campaigns/campaigns.repository.js';
import type { CampaignDeps } from '../../src/campaigns/campaigns.service.js';
import { preview, share, unshare } from '../../src/cli/campaigns.commands.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const variants = loadVariants([builtinVariantsDir()]);

for (const dialect of dialects) {
  describe(`campaign mail and sharing (${dialect})`, () => {
    let instance: Instance;
    let deps: CampaignDeps;
    const newMember = async (firstname = 'Robin') => {
      const body = { email: email('c'), firstname, lastname: 'Doe' };
      return (await instance.call('POST', '/members', { body })).json.data.memberid as string;
    };
    const newCampaign = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/campaigns', {
        body: { name: 'Leaders', variant: 'leadership360', start: '2026-01-01', ...fields },
      });
      return response.json.data.campaignid as string;
    };

    beforeAll(async () => {
      instance = await startInstance(dialect);
      deps = {
        db: instance.db.kysely,
        dialect,
        variants,
        config: instance.config,
        clock: () => new Date(),
        mailQueued: () => {},
        campaignsDue: () => {},
      };
    });
    afterAll(() => instance.close());

    it('queues the completion mails once: member confirmation, report delivery, one per admin', async () => {
      const admins = [await newMember('Ann'), await newMember('Ben')];
      const person = await newMember('Cleo');
      const id = await newCampaign({ admins, sendmemberconfirmation: true, sendreportdelivery: true });
      await instance.call('POST', `/campaigns/${id}/members/${person}`);
      const campaign = await findCampaign(instance.db.kysely, id);
      const member = await instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('campaign_id', '=', id)
        .executeTakeFirstOrThrow();
      for (let i = 0; i < 2; i++) {
        await instance.db.kysely.transaction().execute(async (trx) => {
          await queueCompletionMails(
            deps,
            trx,
            campaign as NonNullable<typeof campaign>,
            member,
            'https://x.test/r/1',
          );
        });
      }
      const mails = await instance.db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('campaign_id', '=', id)
        .execute();
      expect(mails.map((mail) => mail.stage).sort()).toEqual([
        'campaign_reportdelivery',
        'confirmation_admin',
        'confirmation_admin',
        'confirmation_member',
      ]);
      const delivery = mails.find((mail) => mail.stage === 'campaign_reportdelivery');
      expect(JSON.parse(delivery?.params ?? '{}').link).toBe('https://x.test/r/1');
      const toAdmin = mails.find((mail) => mail.stage === 'confirmation_admin');
      expect(JSON.parse(toAdmin?.params ?? '{}').subjectMember).toEqual({
        firstname: 'Cleo',
        lastname: 'Doe',
      });
    });

    it('previews the mail of every stage with a sample member, in another language when asked', async () => {
      const id = await newCampaign({ closingtype: 'date', end: '2099-05-01' });
      for (const stage of [
        'campaign_invitation',
        'campaign_reminder',
        'confirmation_admin',
        'confirmation_member',
        'closing_notification',
        'campaign_reportdelivery',
      ]) {
        const lines = await preview(deps, { campaign: id, stage });
        expect(lines[1]).toBe('To: Alex Sample <alex.sample@example.com>');
        expect(lines[2]).toMatch(/^Subject: ./);
        expect(lines.join('\n').length).toBeGreaterThan(100);
      }
      const invitation = (await preview(deps, { campaign: id, stage: 'campaign_invitation' })).join('\n');
      expect(invitation).toContain(`${instance.config.questionnaireUrl}/q/SAMPLE-TOKEN`);
      const dutch = (
        await preview(deps, { campaign: id, stage: 'campaign_invitation', language: 'nlNL' })
      ).join('\n');
      expect(dutch).not.toBe(invitation);
      expect(dutch).toContain('Language: nlNL');
      const html = (await preview(deps, { campaign: id, stage: 'campaign_invitation', html: true })).join(
        '\n',
      );
      expect(html).toContain('<html');
      await expect(preview(deps, { campaign: id, stage: 'invitation' })).rejects.toThrow(
        /^stage: must be one of/,
      );
      await expect(
        preview(deps, { campaign: id, stage: 'campaign_invitation', language: 'deDE' }),
      ).rejects.toThrow(/^language: the variant leadership360 offers/);
      await expect(preview(deps, { campaign: 'ZZZZZZZZZZ', stage: 'campaign_invitation' })).rejects.toThrow(
        'campaign: no campaign ZZZZZZZZZZ',
      );
      const none = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select('id')
        .where('campaign_id', '=', id)
        .execute();
      expect(none).toEqual([]);
    });

    it('shares a campaign with another user, who sees it as editor, and unshares it', async () => {
      const id = await newCampaign();
      const user = await createUser(
        instance.db.kysely,
        {
          email: email('editor'),
          firstname: 'Eddie',
          lastname: 'Tor',
          admin: false,
        },
        cliActor(),
      );
      expect(await share(deps, id, user.email)).toBe(`campaign ${id} shared with ${user.email} (editor)`);
      expect(await share(deps, id, user.email)).toBe(`${user.email} already has access to campaign ${id}`);
      const detail = (await instance.call('GET', `/campaigns/${id}`)).json.data;
      expect(detail.access.share).toEqual([
        expect.objectContaining({
          campaignid: id,
          userid: user.id,
          type: 'editor',
          email: user.email,
          firstname: 'Eddie',
        }),
      ]);
      expect(detail.accesstype).toBe('owner');
      const client = await createClient(
        instance.db.kysely,
        {
          name: 'editor',
          userId: user.id,
          scopes: ['campaigns'],
          redirectUris: [],
        },
        cliActor(),
      );
      const token = await instance.inject({
        method: 'POST',
        url: '/api/v1/auth/access_token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
          scope: 'campaigns',
        }).toString(),
      });
      const asEditor = await instance.call('GET', `/campaigns/${id}`, {
        auth: `Bearer ${token.json.data.access_token}`,
      });
      expect(asEditor.json.data.accesstype).toBe('editor');
      expect(await unshare(deps, id, user.email)).toBe(
        `campaign ${id} is no longer shared with ${user.email}`,
      );
      expect((await instance.call('GET', `/campaigns/${id}`)).json.data.access.share).toEqual([]);
      await expect(share(deps, id, 'nobody@example.test')).rejects.toThrow(
        'user: no user nobody@example.test',
      );
    });
  });
}
