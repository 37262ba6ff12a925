import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { MailDelivery } from '../../src/mail/delivery.js';
import type { MailParams } from '../../src/mail/mail.types.js';
import { renderMail } from '../../src/mail/render.js';
import { renderPage } from '../../src/pages/render.js';
import { stringsFor } from '../../src/pages/strings.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { MAIL_STAGES } from '../../src/variants/variant.types.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

/**
 * What people typed, in mails and pages (docs/decisions.md, "Text that reaches a mail"): a value is
 * one line whatever is stored, and one holding right-to-left text or bidirectional controls is
 * isolated (FSI ... PDI in subjects and text parts, <bdi> in HTML), so that an unclosed override
 * cannot turn the rest of a sentence around. Latin text is rendered exactly as before.
 */

const variants = loadVariants([builtinVariantsDir()]);
const FSI = '\u2068';
const PDI = '\u2069';
const RLO = '\u202E';
const ISOLATES = /[\u2068\u2069]|<bdi>/;

function params(change: Partial<MailParams> = {}): MailParams {
  return {
    stage: 'campaign_invitation',
    language: 'enUS',
    template: 'standard',
    variant: 'teamscan',
    recipient: { firstname: 'Anna', lastname: 'de Vries', email: 'anna@example.com' },
    campaign: { id: 'c1', name: 'Team 2026', end: '2026-12-04T11:46:36+00:00' },
    link: 'https://assay.example/q/abc',
    sender: 'Acme HR',
    inviter: { firstname: 'Jan', lastname: 'Smit', email: 'jan@example.com' },
    subjectMember: { firstname: 'Piet', lastname: 'Bos' },
    minutes: 12,
    ...change,
  };
}

describe('mail text parts', () => {
  test('a line break in a stored name adds no line to the mail, in any template', () => {
    for (const template of ['standard', 'variant']) {
      for (const stage of MAIL_STAGES) {
        const clean = renderMail(variants, params({ template, stage }));
        const hostile = renderMail(
          variants,
          params({
            template,
            stage,
            recipient: { firstname: 'Anna\nMallory', lastname: 'de\r\nVries', email: 'anna@example.com' },
            campaign: { id: 'c1', name: 'Team\u20282026\n', end: '2026-12-04T11:46:36+00:00' },
            sender: 'Acme\nHR',
            inviter: { firstname: 'Jan\n', lastname: 'Smit', email: 'jan@example.com' },
            subjectMember: { firstname: 'Piet\u0085', lastname: 'Bos' },
          }),
        );
        const label = `${template} ${stage}`;
        expect(hostile.text.split('\n').length, label).toBe(clean.text.split('\n').length);
        expect(hostile.text, label).not.toMatch(/^Mallory/m);
        expect(hostile.subject, label).not.toMatch(/[\r\n\u2028\u0085]/);
      }
    }
    const mail = renderMail(
      variants,
      params({ recipient: { firstname: 'Anna\nMallory', lastname: 'X', email: 'a@x.test' } }),
    );
    expect(mail.text.split('\n')[0]).toBe('Dear Anna Mallory,');
  });

  test('an unclosed right-to-left override in a campaign name ends with the name', () => {
    const name = `Team ${RLO}2026 scan`;
    const mail = renderMail(variants, params({ campaign: { id: 'c1', name, end: null } }));
    expect(mail.subject).toBe(`Invitation to take part in ${FSI}${name}${PDI}`);
    expect(mail.text).toContain(`to take part in ${FSI}${name}${PDI}. You will be answering`);
    // Every override is closed by the isolate around it, on its own line.
    for (const line of mail.text.split('\n').filter((line) => line.includes(RLO))) {
      expect(line.indexOf(PDI, line.indexOf(RLO)), line).toBeGreaterThan(line.indexOf(RLO));
    }
    expect(mail.html).toContain(`<bdi>${name}</bdi>`);
  });

  test('right-to-left names are isolated in subjects, text and HTML; Latin ones are left as they were', () => {
    const mail = renderMail(
      variants,
      params({
        stage: 'confirmation_admin',
        recipient: { firstname: 'שרה', lastname: 'כהן', email: 'sara@example.com' },
        campaign: { id: 'c1', name: 'استطلاع الفريق', end: null },
        sender: 'وكالة',
        subjectMember: { firstname: 'محمد', lastname: 'Ali' },
      }),
    );
    expect(mail.subject).toBe(`Questionnaire completed by ${FSI}محمد Ali${PDI}: ${FSI}استطلاع الفريق${PDI}`);
    expect(mail.text.split('\n')[0]).toBe(`Hello ${FSI}שרה${PDI},`);
    expect(mail.text).toContain(`from ${FSI}وكالة${PDI}.`);
    expect(mail.html).toContain('Hello <bdi>שרה</bdi>,');
    expect(mail.html).toContain('<strong><bdi>وكالة</bdi></strong>');
    expect(mail.html).toContain('<bdi>محمد Ali</bdi> has completed');
    expect(mail.html).toContain(`<title>Questionnaire completed by ${FSI}محمد Ali${PDI}`);
    // Latin, accented, CJK: nothing added.
    for (const firstname of ['Anna', 'José', "O'Brien-Smith", '山田']) {
      for (const template of ['standard', 'variant']) {
        const plain = renderMail(
          variants,
          params({ template, recipient: { firstname, lastname: 'X', email: 'a@x.test' } }),
        );
        expect(`${plain.subject}${plain.text}${plain.html}`, firstname).not.toMatch(ISOLATES);
      }
    }
  });

  test("the variant's own texts and a custom subject isolate the values too, and escape them in HTML", () => {
    const values = {
      recipient: { firstname: 'محمد<b>', lastname: 'X', email: 'm@example.com' },
      campaign: { id: 'c1', name: 'فريق', end: null },
    };
    const own = renderMail(variants, params({ template: 'variant', language: 'nlNL', ...values }));
    expect(own.text.split('\n')[0]).toBe(`Beste ${FSI}محمد<b>${PDI},`);
    expect(own.html).toContain('Beste <bdi>محمد&lt;b&gt;</bdi>,');
    expect(own.subject).toContain(`${FSI}فريق${PDI}`);
    const custom = renderMail(variants, params({ ...values, subject: 'Hi {firstname}: {campaignname} now' }));
    expect(custom.subject).toBe(`Hi ${FSI}محمد<b>${PDI}: ${FSI}فريق${PDI} now`);
  });
});

describe('participant pages', () => {
  test('the campaign and agency names are isolated: <bdi> in the page, FSI/PDI in the title', () => {
    const html = renderPage(
      'intro',
      {
        t: stringsFor('enUS'),
        title: 'Welcome',
        serviceName: `فريق ${RLO}x`,
        brand: 'وكالة',
        heading: 'استطلاع',
        paragraphs: [],
        startAction: '/q/x',
      },
      '/assets',
    );
    expect(html).toContain(`<title>Welcome – ${FSI}فريق ${RLO}x${PDI}</title>`);
    expect(html).toContain(`<span class="header__service"><bdi>فريق ${RLO}x</bdi></span>`);
    expect(html).toContain('<span class="header__brand"><bdi>وكالة</bdi></span>');
    expect(html).toContain('<h1 class="heading-l"><bdi>استطلاع</bdi></h1>');
  });
});

for (const dialect of dialects) {
  describe(`campaign mail over SMTP (${dialect})`, () => {
    let instance: Instance;
    let sink: SmtpSink;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      sink = await startSmtpSink();
    });
    afterAll(async () => {
      await sink.close();
      await instance.close();
    });

    it('delivers a right-to-left campaign name isolated, and a name stored with a line break on one line', async () => {
      const created = await instance.call('POST', '/members/import', {
        body: {
          members: [
            { email: email('rtl'), firstname: 'محمد', lastname: 'Ali' },
            { email: email('legacy'), firstname: 'Ada', lastname: 'Lovelace' },
          ],
        },
      });
      const [arabic, legacy] = created.json.data.created as string[];
      // A name stored before the rules (the API refuses it now): the mail still has no extra line.
      await instance.db.kysely
        .updateTable('members')
        .set({ firstname: 'Ada\nBcc: mallory@evil.test' })
        .where('id', '=', legacy as string)
        .execute();
      const campaign = await instance.call('POST', '/campaigns', {
        body: { name: 'استطلاع الفريق', variant: 'teamscan', start: '2026-01-01T00:00:00+00:00' },
      });
      const id = campaign.json.data.campaignid as string;
      await instance.call('POST', `/campaigns/${id}/members`, { body: { memberids: [arabic, legacy] } });
      expect((await instance.call('POST', `/campaigns/${id}/members/invite`)).json.status).toBe('OK');
      const worker = new MailDelivery({
        db: instance.db.kysely,
        dialect,
        variants,
        smtpUrl: sink.url,
        mailFrom: 'Assay Test <assay@mail.example.test>',
      });
      try {
        expect(await worker.runOnce()).toBe(2);
      } finally {
        await worker.stop();
      }
      await sink.waitForReceived(2);
      const mails = await Promise.all(sink.received.map((mail) => sink.parsed(mail.messageId)));
      const toArabic = mails.find((mail) => mail.text?.includes('محمد')) as (typeof mails)[number];
      const toLegacy = mails.find((mail) => mail.text?.includes('Ada')) as (typeof mails)[number];
      expect(toArabic.subject).toBe(`Invitation to take part in ${FSI}استطلاع الفريق${PDI}`);
      expect(toArabic.text?.split('\n')[0]).toBe(`Dear ${FSI}محمد${PDI},`);
      expect(toArabic.html).toContain('<bdi>استطلاع الفريق</bdi>');
      expect(toLegacy.text?.split('\n')[0]).toBe('Dear Ada Bcc: mallory@evil.test,');
      expect(toLegacy.text).not.toMatch(/^Bcc:/m);
      expect(toLegacy.headers.has('bcc')).toBe(false);
    });
  });
}
