import type { Language } from '../variants/variant.types.js';

/**
 * The few structural words of a report that are not variant texts: every variant shares them, so
 * they live here rather than in each variant's text files. Anything about the instrument itself
 * (titles, headings, band names, interpretations) comes from the variant.
 */
export interface ReportLabels {
  /** The BCP 47 tag of the PDF's `/Lang`, and the locale of dates and numbers. */
  readonly locale: string;
  /** The report's language, named in that language (the cover says which language it is in). */
  readonly languageName: string;
  readonly howToRead: string;
  readonly scoreBands: string;
  readonly completed: string;
  readonly instrument: string;
  readonly language: string;
  readonly preparedBy: string;
  readonly reportId: string;
  readonly noScore: string;
  /** Opens the alternative text of a bar chart, before the list of "name: score (band)". */
  readonly chartAlt: string;
  /** `{page}` and `{pages}` are replaced. */
  readonly page: string;
}

const LABELS: Readonly<Record<Language, ReportLabels>> = {
  enUS: {
    locale: 'en-US',
    languageName: 'English',
    howToRead: 'How to read this report',
    scoreBands: 'Score bands',
    completed: 'Completed',
    instrument: 'Instrument',
    language: 'Language',
    preparedBy: 'Prepared by',
    reportId: 'Report ID',
    noScore: 'No answers',
    chartAlt: 'Bar chart of scores on a scale from 0 to 100',
    page: 'Page {page} of {pages}',
  },
  nlNL: {
    locale: 'nl-NL',
    languageName: 'Nederlands',
    howToRead: 'Zo lees je dit rapport',
    scoreBands: 'Scoreniveaus',
    completed: 'Ingevuld op',
    instrument: 'Instrument',
    language: 'Taal',
    preparedBy: 'Opgesteld door',
    reportId: 'Rapportnummer',
    noScore: 'Geen antwoorden',
    chartAlt: 'Staafdiagram van de scores op een schaal van 0 tot 100',
    page: 'Pagina {page} van {pages}',
  },
  esES: {
    locale: 'es-ES',
    languageName: 'Español',
    howToRead: 'Cómo leer este informe',
    scoreBands: 'Niveles de puntuación',
    completed: 'Fecha de realización',
    instrument: 'Instrumento',
    language: 'Idioma',
    preparedBy: 'Elaborado por',
    reportId: 'Identificador del informe',
    noScore: 'Sin respuestas',
    chartAlt: 'Gráfico de barras de las puntuaciones en una escala de 0 a 100',
    page: 'Página {page} de {pages}',
  },
  frFR: {
    locale: 'fr-FR',
    languageName: 'Français',
    howToRead: 'Comment lire ce rapport',
    scoreBands: 'Niveaux de score',
    completed: 'Date de passation',
    instrument: 'Questionnaire',
    language: 'Langue',
    preparedBy: 'Préparé par',
    reportId: 'Identifiant du rapport',
    noScore: 'Aucune réponse',
    chartAlt: 'Diagramme en barres des scores sur une échelle de 0 à 100',
    page: 'Page {page} sur {pages}',
  },
};

export function labelsFor(language: Language): ReportLabels {
  return LABELS[language];
}
