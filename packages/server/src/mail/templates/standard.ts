import type { Language, MailStage } from '../../variants/variant.types.js';
import { enUS } from './en-us.js';
import { esES } from './es-es.js';
import { frFR } from './fr-fr.js';
import { compileHtml, compileText, type Template } from './handlebars.js';
import { type LanguageSource, type StandardSources, standardSources } from './layout.js';
import { nlNL } from './nl-nl.js';

const LANGUAGE_SOURCES: Readonly<Record<Language, LanguageSource>> = { enUS, nlNL, esES, frFR };

export type StandardPart = keyof StandardSources;

const sources = new Map<string, StandardSources>();
const compiled = new Map<string, Template>();

/**
 * One part of a standard mail, compiled on first use and kept: compiling is what costs (about a
 * millisecond a template), rendering a compiled one costs microseconds.
 */
export function standardTemplate(language: Language, stage: MailStage, part: StandardPart): Template {
  const key = `${language}:${stage}:${part}`;
  let template = compiled.get(key);
  if (template === undefined) {
    const source = sourcesOf(language, stage)[part];
    template = part === 'html' || part === 'footer' ? compileHtml(source) : compileText(source);
    compiled.set(key, template);
  }
  return template;
}

function sourcesOf(language: Language, stage: MailStage): StandardSources {
  const key = `${language}:${stage}`;
  let found = sources.get(key);
  if (found === undefined) {
    const { locale, stages } = LANGUAGE_SOURCES[language];
    found = standardSources(locale, stages[stage]);
    sources.set(key, found);
  }
  return found;
}

/** The BCP 47 tag of a language: the HTML `lang` and the locale of dates. */
export function localeOf(language: Language): string {
  return LANGUAGE_SOURCES[language].locale;
}
