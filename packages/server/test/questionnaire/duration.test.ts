import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { mailContext, memberMail } from '../../src/campaigns/campaign-mail.service.js';
import type { CampaignDeps } from '../../src/campaigns/campaigns.service.js';
import type { Database } from '../../src/db/database.js';
import { renderMail } from '../../src/mail/render.js';
import { renderPage } from '../../src/pages/render.js';
import { questionnaireMinutes } from '../../src/questionnaire/duration.js';
import { questionnaireLink } from '../../src/questionnaire/links.js';
import { introView } from '../../src/questionnaire/views/participation.view.js';
import {
  BUILT_IN,
  campaignRow,
  LANGUAGES,
  participation,
  paths,
  TOKEN,
  variant,
  variants,
} from './fixtures.js';

/**
 * How long the questionnaire takes is one rule (`questionnaireMinutes`): the invitation mail and
 * the start page a participant reads next state the same figure, in every built-in variant and
 * language, whichever template the campaign mails with.
 */

/** Every "<n> minutes" a text states, in the four languages. */
function durations(text: string): number[] {
  return [...text.matchAll(/(\d+)(?:\s|&nbsp;|\u00a0)*(?:minutes?|minuten|minuut|minutos?)\b/giu)].map(
    (match) => Number(match[1]),
  );
}

const deps = {
  variants,
  config: { mailFrom: 'Assay <assay@example.com>', questionnaireUrl: 'https://assay.example/survey' },
} as unknown as CampaignDeps;
// A campaign without a creator: mailContext reads nothing from the database.
const noDatabase = undefined as unknown as Kysely<Database>;

async function invitation(alias: string, language: (typeof LANGUAGES)[number], template: string) {
  const campaign = campaignRow({
    variant: alias,
    language,
    mailconfig: JSON.stringify({ campaign_invitation: template }),
  });
  const context = await mailContext(deps, noDatabase, campaign);
  const member = {
    id: 'cm00000001',
    member_id: 'm000000001',
    token: TOKEN,
    title: '',
    firstname: 'Zoë',
    lastname: 'Ångström',
    email: 'zoe@example.com',
    extra: null,
    mailconfig: null,
    countreminded: 0,
  };
  const mail = memberMail(context, member, 'campaign_invitation', 0, questionnaireLink(deps, TOKEN));
  return renderMail(variants, mail.params);
}

describe('the questionnaire duration', () => {
  for (const alias of BUILT_IN) {
    for (const language of LANGUAGES) {
      it(`${alias} ${language}: the invitation mail and the start page state the same minutes`, async () => {
        const minutes = questionnaireMinutes(variant(alias));
        expect(minutes).toBeGreaterThan(0);
        const { model, template } = introView(participation(alias, language), paths, 'c');
        const page = renderPage(template, model, '/survey/assets');
        expect(durations(page)).toEqual([minutes]);
        const standard = await invitation(alias, language, 'standard');
        expect(durations(standard.text)).toEqual([minutes]);
        expect(durations(standard.html)).toEqual([minutes]);
        // The variant's own invitation text states no other figure.
        const own = await invitation(alias, language, 'variant');
        expect(own.text).not.toBe(standard.text);
        for (const stated of [...durations(own.text), ...durations(own.html)]) expect(stated).toBe(minutes);
      });
    }
  }

  it('rounds to five minutes, at least five; no figure for a variant without questions', () => {
    const likert = (n: number) => Array.from({ length: n }, () => ({ type: 'likert' as const }));
    expect(questionnaireMinutes({ questions: likert(3) as never })).toBe(5);
    expect(questionnaireMinutes({ questions: likert(120) as never })).toBe(15);
    expect(
      questionnaireMinutes({ questions: [...likert(24), { type: 'text' }, { type: 'text' }] as never }),
    ).toBe(5);
    expect(questionnaireMinutes({ questions: [] })).toBeUndefined();
    expect(questionnaireMinutes(undefined)).toBeUndefined();
  });
});
