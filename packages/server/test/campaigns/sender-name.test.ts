import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createClient, createUser } from '../../src/auth/auth.service.js';
import { MailDelivery } from '../../src/mail/delivery.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

const variants = loadVariants([builtinVariantsDir()]);

// docs/campaigns.md ("Mail"): the sender name of campaign mail is the agency name of the user who owns
// the campaign (its creator: the user whose API client created it), else MAIL_FROM's name; the address
// is always MAIL_FROM's. Checked on what a real SMTP server receives.
for (const dialect of dialects) {
  describe(`the sender name of campaign mail (${dialect})`, () => {
    let instance: Instance;
    let sink: SmtpSink;
    let delivery: MailDelivery;
    beforeAll(async () => {
      sink = await startSmtpSink();
      instance = await startInstance(dialect, {
        env: { SMTP_URL: sink.url, MAIL_FROM: 'Acme HR <hr@acme.test>' },
      });
      delivery = new MailDelivery({
        db: instance.db.kysely,
        dialect,
        variants,
        smtpUrl: sink.url,
        mailFrom: instance.config.mailFrom,
      });
    });
    afterAll(async () => {
      await delivery.stop();
      await instance.close();
      await sink.close();
    });

    /** A bearer token of a new client of a new user with the given agency name ('' for none). */
    const tokenOfUser = async (agencyname: string) => {
      const user = await createUser(
        instance.db.kysely,
        {
          email: email('owner'),
          firstname: 'Olive',
          lastname: 'Owner',
          agencyname,
        },
        cliActor(),
      );
      const client = await createClient(
        instance.db.kysely,
        {
          name: 'integration',
          userId: user.id,
          scopes: ['members', 'campaigns'],
          redirectUris: [],
        },
        cliActor(),
      );
      return `Bearer ${await instance.clientToken(client, 'members campaigns')}`;
    };

    /** Creates a campaign through the API as that user, invites one member, delivers: the mail received. */
    const inviteAs = async (auth: string) => {
      const call = (method: string, url: string, body?: unknown) =>
        instance.call(method, url, { auth, body });
      const address = email('invitee');
      const member = await call('POST', '/members', {
        email: address,
        firstname: 'Ivy',
        lastname: 'Invitee',
      });
      const campaign = await call('POST', '/campaigns', {
        name: 'Sender',
        variant: 'teamscan',
        start: '2026-01-01',
      });
      const id = campaign.json.data.campaignid as string;
      await call('POST', `/campaigns/${id}/members/${member.json.data.memberid}`);
      expect((await call('POST', `/campaigns/${id}/members/invite`)).json).toEqual({
        status: 'OK',
        data: '',
      });
      while ((await delivery.runOnce()) > 0) {}
      const received = sink.received.find((mail) => mail.envelope.to.includes(address));
      if (!received) throw new Error(`no mail to ${address}`);
      return sink.parsed(received.messageId);
    };

    it("is the campaign owner's agency name, from MAIL_FROM's address", async () => {
      const mail = await inviteAs(await tokenOfUser('Northwind Coaching'));
      expect(mail.from?.value).toEqual([{ name: 'Northwind Coaching', address: 'hr@acme.test' }]);
      expect(mail.text).toContain('Northwind Coaching');
      expect(mail.text).not.toContain('Acme HR');
    });

    it("is MAIL_FROM's name when the owner has no agency name", async () => {
      const mail = await inviteAs(await tokenOfUser(''));
      expect(mail.from?.value).toEqual([{ name: 'Acme HR', address: 'hr@acme.test' }]);
      expect(mail.text).toContain('Acme HR');
    });
  });
}
