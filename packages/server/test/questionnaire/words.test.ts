import { describe, expect, it } from 'vitest';
import { renderMail } from '../../src/mail/render.js';
import { renderPage } from '../../src/pages/render.js';
import { signupStringsFor } from '../../src/pages/signup-strings.js';
import { fill, stringsFor } from '../../src/pages/strings.js';
import { doneView } from '../../src/questionnaire/views/participation.view.js';
import { questionPageView } from '../../src/questionnaire/views/question-page.view.js';
import { type Language, MAIL_STAGES } from '../../src/variants/variant.types.js';
import { BUILT_IN, LANGUAGES, participation, paths, variant, variants } from './fixtures.js';

/**
 * The participant's words agree with each other, in every language: the page strings, the sign-up
 * strings, the mails (standard and the variants' own) and the built-in variants' texts.
 */

/** Everything a participant or organizer may read in one language, as plain text. */
function everything(language: Language): string[] {
  const texts: string[] = [
    ...Object.values(stringsFor(language)),
    ...Object.values(signupStringsFor(language)),
  ];
  for (const alias of BUILT_IN) {
    texts.push(...Object.values(variant(alias).texts[language] ?? {}));
    for (const stage of MAIL_STAGES) {
      for (const template of ['standard', 'variant']) {
        const mail = renderMail(variants, {
          stage,
          language,
          template,
          variant: alias,
          recipient: { firstname: 'Zoë', lastname: 'Ångström', email: 'zoe@example.com' },
          campaign: { id: 'c1', name: 'Team 2026', end: '2026-12-04T11:46:36+00:00' },
          link: 'https://assay.example/q/abc',
          sender: 'Acme HR',
          inviter: { firstname: 'Jan', lastname: 'Smit', email: 'jan@example.com' },
          minutes: 15,
        });
        texts.push(mail.subject, mail.text);
      }
    }
  }
  return texts;
}

/** English words spelt with -ise or -ize: one spelling each (en-US: -ize). */
const EN_STEMS = /\b(organi|recogni|reali|apologi|emphasi|summari|priori)([sz])/giu;
/** The other languages: the organizer, one way ("organisator", "organisateur", "organiza"). */
const ORGANIZER = /\b(organi)([sz])/giu;

describe('the participant’s words', () => {
  for (const language of LANGUAGES) {
    it(`${language}: spell each word one way (organizer or organiser, never both)`, () => {
      const letters = new Map<string, Set<string>>();
      for (const text of everything(language)) {
        for (const [, stem, letter] of text.matchAll(language === 'enUS' ? EN_STEMS : ORGANIZER)) {
          const stemKey = (stem ?? '').toLowerCase();
          letters.set(stemKey, (letters.get(stemKey) ?? new Set()).add((letter ?? '').toLowerCase()));
        }
      }
      for (const [stem, found] of letters) expect([...found], `${language} ${stem}…`).toHaveLength(1);
      if (language === 'enUS') expect(letters.get('organi')).toEqual(new Set(['z']));
    });

    for (const alias of BUILT_IN) {
      it(`${language} ${alias}: a question page says where the participant is once ("Page n of m")`, () => {
        const pages = variant(alias).pages.length;
        for (let number = 1; number <= pages; number++) {
          const { model } = questionPageView(participation(alias, language), number, paths, 'c');
          expect(model.caption).toBe(fill(stringsFor(language).pageOf, { page: number, pages }));
          // The heading names the page, not its position again in other words ("Part 1 of 6").
          expect(String(model.heading)).not.toMatch(new RegExp(`(^|\\D)${number}\\D{1,12}${pages}(\\D|$)`));
        }
      });

      it(`${language} ${alias}: the confirmation offers the report exactly when the campaign sends it`, () => {
        const t = stringsFor(language);
        // Who makes the report available is the page's to say (it knows whether it is offered).
        expect(variant(alias).texts[language]?.['questionnaire.thanks']).not.toMatch(
          /report|rapport|informe/i,
        );
        for (const offered of [true, false]) {
          const shown = participation(alias, language, {
            member: { status: 'completed' },
            campaign: { sendreportdelivery: offered ? 1 : 0 },
          });
          const { template, model } = doneView(shown, paths, 'c');
          const html = renderPage(template, model, '/survey/assets');
          const text = html.replaceAll('&#x27;', '’').replaceAll('&#x3D;', '=');
          expect(html.includes(t.doneReportLink), `${offered}`).toBe(offered);
          expect(html.includes(String(model.reportAction)), `${offered}`).toBe(offered);
          expect(text.includes(t.doneReportByMail)).toBe(offered);
          expect(text.includes(t.doneNoReport)).toBe(!offered);
        }
      });
    }
  }
});
