import { list, reportVariant } from '../normalise.js';
import type { Transport } from '../transport.js';
import type {
  ClientConfig,
  ClientConfigShort,
  Datastructure,
  ReportVariant,
  TextKeys,
  Texts,
} from '../types.js';
import { seg } from './shared.js';

/** The settings family (scope `settings`): discovering variants, languages, questions and texts. */
export class Settings {
  constructor(private readonly http: Transport) {}

  /** GET /settings/config: the full client configuration. */
  config(): Promise<ClientConfig> {
    return this.http.call('GET', '/settings/config');
  }

  /** GET /settings/config/short: the shortened client configuration. */
  configShort(): Promise<ClientConfigShort> {
    return this.http.call('GET', '/settings/config/short');
  }

  /** GET /settings/reports: the report variants (languages, default language, report types, roles). */
  reportVariants(): Promise<ReportVariant[]> {
    return this.http.call('GET', '/settings/reports', list(reportVariant));
  }

  /**
   * GET /settings/reports/{reportalias}/datastructure: the questions of a variant by code, with their
   * texts (in `language`, default the variant's own).
   */
  datastructure(reportAlias: string, options: { language?: string } = {}): Promise<Datastructure> {
    return this.http.call('GET', `/settings/reports/${seg(reportAlias)}/datastructure`, undefined, {
      query: { language: options.language },
    });
  }

  /** GET /settings/reports/{reportalias}/textkeys. */
  textKeys(reportAlias: string): Promise<TextKeys> {
    return this.http.call('GET', `/settings/reports/${seg(reportAlias)}/textkeys`);
  }

  /** GET /settings/reports/{reportalias}/{lang}/texts: text key to text. */
  texts(reportAlias: string, language: string): Promise<Texts> {
    return this.http.call('GET', `/settings/reports/${seg(reportAlias)}/${seg(language)}/texts`);
  }
}
