import { ClientConfig, ClientConfigShort, Datastructure, ReportVariants } from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { expectShape } from '../helpers/shapes.js';

const LANGUAGES = ['enUS', 'nlNL', 'esES', 'frFR'];
const BUILTINS = ['bigfive', 'leadership360', 'teamscan'];

for (const dialect of dialects) {
  describe(`settings (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('answers the client config and its short form', async () => {
      const full = await instance.call('GET', '/settings/config');
      expect(full.json.status).toBe('OK');
      expectShape(ClientConfig, full.json.data);
      expect(full.json.data.variants).toEqual(BUILTINS);
      const short = await instance.call('GET', '/settings/config/short');
      expectShape(ClientConfigShort, short.json.data);
      expect(short.json.data.languages.sort()).toEqual([...LANGUAGES].sort());
    });

    it('lists every built-in variant with its languages, default language, report types and roles', async () => {
      const response = await instance.call('GET', '/settings/reports');
      expectShape(ReportVariants, response.json.data);
      const byAlias = Object.fromEntries(response.json.data.map((v: { alias: string }) => [v.alias, v]));
      expect(Object.keys(byAlias)).toEqual(BUILTINS);
      expect(byAlias.leadership360.roles.map((r: { value: string }) => r.value)).toEqual([
        'role=self',
        'role=manager',
        'role=peer',
        'role=directreport',
      ]);
      const self = byAlias.leadership360.roles[0];
      expect(Object.keys(self).sort()).toEqual([
        'canaddparticipants',
        'hideinwizard',
        'label',
        'mailconfig',
        'mandatory',
        'showintitle',
        'value',
      ]);
      expect(self.mailconfig).toEqual([]);
      for (const alias of BUILTINS) {
        expect(byAlias[alias].languages.sort()).toEqual([...LANGUAGES].sort());
        expect(byAlias[alias].defaultlanguage).toBe('enUS');
      }
    });

    it('maps question codes to question texts in every language, for every built-in', async () => {
      for (const alias of BUILTINS) {
        for (const language of LANGUAGES) {
          const response = await instance.call(
            'GET',
            `/settings/reports/${alias}/datastructure?language=${language}`,
          );
          expect(response.json.status, `${alias} ${language}`).toBe('OK');
          expectShape(Datastructure, response.json.data);
          for (const question of Object.values<{ text: string }>(response.json.data.questions)) {
            expect(question.text.length).toBeGreaterThan(0);
          }
        }
      }
      const bigfive = (await instance.call('GET', '/settings/reports/bigfive/datastructure')).json.data;
      expect(Object.keys(bigfive.questions)).toHaveLength(120);
      expect(bigfive.questions.Q1).toMatchObject({
        type: 'likert',
        dimension: 'N',
        facet: 'N1',
        points: [1, 2, 3, 4, 5],
      });
    });

    it('answers the text keys, and the texts per language with the same keys', async () => {
      for (const alias of BUILTINS) {
        const keys = (await instance.call('GET', `/settings/reports/${alias}/textkeys`)).json.data;
        expect(keys.length).toBeGreaterThan(50);
        for (const language of LANGUAGES) {
          const texts = (await instance.call('GET', `/settings/reports/${alias}/${language}/texts`)).json
            .data;
          expect(Object.keys(texts)).toEqual(keys);
          expect(Object.values(texts).every((text) => typeof text === 'string' && text.length > 0)).toBe(
            true,
          );
        }
      }
      const nl = (await instance.call('GET', '/settings/reports/bigfive/nlNL/texts')).json.data;
      const en = (await instance.call('GET', '/settings/reports/bigfive/enUS/texts')).json.data;
      expect(nl['q.Q1']).not.toBe(en['q.Q1']);
    });

    it('answers 404 for an unknown variant or language', async () => {
      for (const url of [
        '/settings/reports/nope/datastructure',
        '/settings/reports/nope/textkeys',
        '/settings/reports/nope/enUS/texts',
        '/settings/reports/bigfive/deDE/texts',
        '/settings/reports/bigfive/datastructure?language=xx',
      ]) {
        const response = await instance.call('GET', url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json.error).toBe('not_found');
      }
      const empty = await instance.call('GET', '/settings/reports/bigfive/datastructure?language=');
      expect(empty.json.data.language).toBe(
        (await instance.call('GET', '/settings/reports/bigfive/datastructure')).json.data.language,
      );
    });

    it('needs the settings scope', async () => {
      const token = await instance.token('members');
      expect((await instance.call('GET', '/settings/reports', { auth: `Bearer ${token}` })).statusCode).toBe(
        403,
      );
    });
  });
}
