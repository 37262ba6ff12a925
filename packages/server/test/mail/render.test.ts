import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { MailParams } from '../../src/mail/mail.types.js';
import { renderMail, TEMPLATE_IDS } from '../../src/mail/render.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { LANGUAGES, type Language, MAIL_STAGES, type MailStage } from '../../src/variants/variant.types.js';
import { tempDir, writeTiny } from '../variants/fixtures.js';

const variants = loadVariants([builtinVariantsDir()]);
const LINK = 'https://assay.example/q/Tk3n-_abc';
const LOCALES: Record<Language, string> = { enUS: 'en-US', nlNL: 'nl-NL', esES: 'es-ES', frFR: 'fr-FR' };
const LINK_STAGES: readonly MailStage[] = [
  'campaign_invitation',
  'campaign_reminder',
  'campaign_reportdelivery',
];
const HOSTILE = '<script>alert(1)</script> & "x"';

function params(change: Partial<MailParams> = {}): MailParams {
  return {
    stage: 'campaign_invitation',
    language: 'enUS',
    template: 'standard',
    variant: 'teamscan',
    recipient: { firstname: 'Anna', lastname: 'de Vries', email: 'anna@example.com' },
    campaign: { id: 'c1', name: 'Team 2026', end: '2026-12-04T11:46:36+00:00' },
    link: LINK,
    sender: 'Acme HR',
    inviter: { firstname: 'Jan', lastname: 'Smit', email: 'jan@example.com' },
    subjectMember: { firstname: 'Piet', lastname: 'Bos' },
    minutes: 12,
    ...change,
  };
}

const temps: { remove(): void }[] = [];
afterAll(() => {
  for (const temp of temps) temp.remove();
});

/** The tiny fixture variant (enUS, nlNL) with the given files in its `mail/` folder. */
function tinyWithMailFiles(files: Record<string, string>) {
  const temp = tempDir();
  temps.push(temp);
  const dir = writeTiny(temp.root);
  mkdirSync(join(dir, 'mail'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, 'mail', name), content);
  return loadVariants([temp.root]);
}

test('TEMPLATE_IDS names the two templates', () => {
  expect(TEMPLATE_IDS).toEqual(['standard', 'variant']);
});

describe('standard templates', () => {
  for (const language of LANGUAGES) {
    for (const stage of MAIL_STAGES) {
      test(`${stage} in ${language}`, () => {
        const mail = renderMail(variants, params({ stage, language }));
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(part.trim()).not.toBe('');
          expect(part).not.toContain('{{');
        }
        expect(mail.subject).not.toMatch(/[\r\n]/);
        expect(mail.subject).toContain('Team 2026');
        expect(mail.html).toContain(`<html lang="${LOCALES[language]}"`);
        expect(mail.html).toContain('Acme HR');
        expect(mail.text).toContain('Anna');
        expect(mail.text).not.toMatch(/\n{3}/);
        if (LINK_STAGES.includes(stage)) {
          expect(mail.text).toContain(LINK);
          expect(mail.html).toContain(`href="${LINK}"`);
        } else {
          expect(mail.html).not.toContain(LINK);
        }
      });
    }
  }

  test('names the inviter, the variant, the time it takes and the closing date', () => {
    const mail = renderMail(variants, params());
    expect(mail.text).toContain('Jan Smit of Acme HR has invited you to take part in Team 2026.');
    expect(mail.text).toContain('Team Effectiveness Scan');
    expect(mail.text).toContain('It takes about 12 minutes.');
    expect(mail.text).toContain('The questionnaire closes on Friday, December 4, 2026.');
  });

  test('leaves out what it does not know', () => {
    const mail = renderMail(
      variants,
      params({ inviter: null, minutes: undefined, campaign: { id: 'c1', name: 'Team 2026', end: null } }),
    );
    expect(mail.text).toContain('Acme HR has invited you');
    expect(mail.text).not.toMatch(/minute|closes/);
    expect(renderMail(variants, params({ minutes: 1 })).text).toContain('It takes about 1 minute.');
  });

  test('confirmation_admin names the member who completed', () => {
    const mail = renderMail(variants, params({ stage: 'confirmation_admin', language: 'nlNL' }));
    expect(mail.subject).toBe('Vragenlijst ingevuld door Piet Bos: Team 2026');
    expect(mail.text).toContain('Hallo Anna,');
    expect(mail.text).toContain('Piet Bos heeft de vragenlijst');
  });

  test('an unknown template id renders as standard', () => {
    expect(renderMail(variants, params({ template: 'peer-invite' }))).toEqual(renderMail(variants, params()));
  });
});

describe('closing dates', () => {
  const dates: Record<Language, string> = {
    enUS: 'Friday, December 4, 2026',
    nlNL: 'vrijdag 4 december 2026',
    esES: 'viernes, 4 de diciembre de 2026',
    frFR: 'vendredi 4 décembre 2026',
  };
  for (const language of LANGUAGES) {
    test(`in ${language}`, () => {
      for (const stage of ['campaign_invitation', 'campaign_reminder'] as const) {
        const mail = renderMail(variants, params({ stage, language }));
        expect(mail.text).toContain(dates[language]);
        expect(mail.html).toContain(dates[language]);
      }
    });
  }

  test('the day is the day in UTC', () => {
    const late = (end: string) =>
      renderMail(variants, params({ campaign: { id: 'c1', name: 'Team 2026', end } })).text;
    expect(late('2026-12-04T23:30:00+00:00')).toContain('Friday, December 4, 2026');
    expect(late('2026-12-04T23:30:00-05:00')).toContain('Saturday, December 5, 2026');
  });
});

describe('escaping', () => {
  for (const language of LANGUAGES) {
    for (const template of ['standard', 'variant']) {
      test(`${template} in ${language}: HTML escapes, text does not`, () => {
        const mail = renderMail(
          variants,
          params({
            language,
            template,
            recipient: { firstname: HOSTILE, lastname: HOSTILE, email: 'a@example.com' },
            campaign: { id: 'c1', name: HOSTILE, end: null },
            sender: HOSTILE,
          }),
        );
        expect(mail.html).not.toContain('<script>');
        expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;');
        expect(mail.text).toContain(HOSTILE);
        expect(mail.subject).toContain(HOSTILE);
      });
    }
  }

  test('a link is escaped in HTML attributes and raw in text', () => {
    const link = 'https://assay.example/q/abc?a=1&b="2"';
    const mail = renderMail(variants, params({ link }));
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('href="https://assay.example/q/abc?a&#x3D;1&amp;b&#x3D;&quot;2&quot;"');
  });

  test('values are never read as templates or placeholders', () => {
    const name = '{{sender}} {link} $& $1';
    for (const template of ['standard', 'variant']) {
      const mail = renderMail(variants, params({ template, campaign: { id: 'c1', name, end: null } }));
      expect(mail.text).toContain(name);
      expect(mail.subject).toContain(name);
    }
  });

  test('params of any shape render without throwing', () => {
    const broken = {
      ...params(),
      language: 'xxXX',
      recipient: null,
      campaign: { id: 1, name: 42, end: 'next week' },
      link: undefined,
      sender: { not: 'a string' },
      inviter: 'nobody',
      subjectMember: [],
      minutes: Number.NaN,
    } as unknown as MailParams;
    for (const template of ['standard', 'variant']) {
      const mail = renderMail(variants, { ...broken, template });
      expect(mail.subject).toContain('42');
      expect(mail.text).toContain('next week');
    }
  });

  test('an unknown variant is an error', () => {
    expect(() => renderMail(variants, params({ variant: 'nope' }))).toThrow('unknown variant "nope"');
  });
});

describe('custom subject', () => {
  test('replaces the subject of every template, on one line, with placeholders filled', () => {
    for (const template of ['standard', 'variant']) {
      const mail = renderMail(
        variants,
        params({ template, subject: 'Please join {campaignname}\r\nsoon {x}' }),
      );
      expect(mail.subject).toBe('Please join Team 2026 soon {x}');
      expect(mail.html).toContain('<title>Please join Team 2026 soon {x}</title>');
    }
  });

  test('an empty one is ignored', () => {
    const mail = renderMail(variants, params({ subject: '  ' }));
    expect(mail.subject).toBe('Invitation to take part in Team 2026');
  });
});

describe('variant template', () => {
  const variant = params({ template: 'variant', language: 'nlNL' });

  test("uses the variant's texts with the placeholders filled", () => {
    const texts = variants.get('teamscan')?.texts.nlNL ?? {};
    const mail = renderMail(variants, variant);
    expect(mail.subject).toBe(
      texts['mail.campaign_invitation.subject']?.replace('{campaignname}', 'Team 2026'),
    );
    expect(mail.text.startsWith('Beste Anna,\n\nJe bent uitgenodigd om deel te nemen aan Team 2026.')).toBe(
      true,
    );
    expect(mail.text).toContain(`\n${LINK}\n`);
    expect(mail.text).toContain('Sluitingsdatum: vrijdag 4 december 2026');
    expect(mail.text).toContain('Met vriendelijke groet,\nAcme HR');
    expect(mail.html).toContain('<html lang="nl-NL"');
    expect(mail.html).toContain(`<a href="${LINK}"`);
    expect(mail.html).toContain('<p style="margin:0 0 16px 0;">Beste Anna,</p>');
  });

  test('leaves out the lines of {end} when the campaign has no end', () => {
    const mail = renderMail(variants, { ...variant, campaign: { id: 'c1', name: 'Team 2026', end: null } });
    expect(mail.text).not.toContain('Sluitingsdatum');
    expect(mail.html).not.toContain('Sluitingsdatum');
  });

  test('confirmation_admin: {firstname} {lastname} name the member who completed', () => {
    const mail = renderMail(variants, { ...variant, stage: 'confirmation_admin' });
    expect(mail.subject).toBe('Vragenlijst ingevuld: Piet Bos (Team 2026)');
  });

  test('falls back to standard for a language the variant has no texts in', () => {
    const tiny = tinyWithMailFiles({});
    const mail = renderMail(tiny, params({ variant: 'tiny', template: 'variant', language: 'frFR' }));
    expect(mail.subject).toBe('Invitation à participer à Team 2026');
    expect(mail.html).toContain('<html lang="fr-FR"');
  });
});

describe('variant override files', () => {
  test('replace the parts they name, for that stage and language only', () => {
    const tiny = tinyWithMailFiles({
      'campaign_invitation.enUS.subject.hbs': 'Hi {{firstname}}:\n{{campaignname}}',
      'campaign_invitation.enUS.html.hbs': '<html lang="en-US"><p>{{firstname}} – {{variantname}}</p></html>',
      'README.txt': 'not a template',
    });
    const mail = renderMail(
      tiny,
      params({ variant: 'tiny', recipient: { ...params().recipient, firstname: HOSTILE } }),
    );
    expect(mail.subject).toBe(`Hi ${HOSTILE}: Team 2026`);
    expect(mail.html).toBe(
      '<html lang="en-US"><p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; – variant.name (enUS)</p></html>',
    );
    expect(mail.text).toContain(`Dear ${HOSTILE},`);
    expect(mail.text).toContain(LINK);
    const dutch = renderMail(tiny, params({ variant: 'tiny', language: 'nlNL' }));
    expect(dutch.subject).toBe('Uitnodiging voor Team 2026');
    const reminder = renderMail(tiny, params({ variant: 'tiny', stage: 'campaign_reminder' }));
    expect(reminder.subject).toBe('A friendly reminder: Team 2026');
  });

  test('a misnamed or broken file is an error naming it', () => {
    const misnamed = tinyWithMailFiles({ 'invitation.enUS.subject.hbs': 'x' });
    expect(() => renderMail(misnamed, params({ variant: 'tiny' }))).toThrow(
      /mail template .*invitation\.enUS\.subject\.hbs: unknown name/,
    );
    const broken = tinyWithMailFiles({ 'campaign_reminder.nlNL.text.hbs': '{{#if firstname}}open' });
    expect(() => renderMail(broken, params({ variant: 'tiny' }))).toThrow(
      /mail template .*campaign_reminder\.nlNL\.text\.hbs: /,
    );
    const helper = tinyWithMailFiles({ 'campaign_reminder.nlNL.html.hbs': '{{shout firstname}}' });
    expect(() => renderMail(helper, params({ variant: 'tiny' }))).toThrow(/unknown helper shout/);
  });
});
