import type { Language } from '../variants/variant.types.js';

/** The words of the console's reports (console/views/reports.view.ts), in its four languages. */
export interface ReportsStrings {
  readonly nav: string;
  readonly title: string;
  readonly filters: string;
  readonly variant: string;
  readonly type: string;
  readonly campaign: string;
  readonly anyVariant: string;
  readonly anyType: string;
  readonly anyCampaign: string;
  readonly from: string;
  readonly to: string;
  readonly dateHint: string;
  readonly name: string;
  readonly nameHint: string;
  readonly apply: string;
  readonly clear: string;
  readonly caption: string;
  readonly filteredCaption: string;
  readonly noReports: string;
  readonly noMatches: string;
  readonly colSubject: string;
  readonly colDate: string;
  readonly colVariant: string;
  readonly colType: string;
  readonly colLanguage: string;
  readonly colCampaign: string;
  readonly noSubject: string;
  readonly types: Readonly<Record<string, string>>;
  /** "Report {id}" */
  readonly reportTitle: string;
  readonly summary: string;
  readonly member: string;
  readonly date: string;
  readonly language: string;
  readonly lastOpened: string;
  readonly never: string;
  readonly scores: string;
  readonly scoresCaption: string;
  readonly colDimension: string;
  readonly colScore: string;
  readonly colBand: string;
  /** "{name}: {score} of 100" */
  readonly chartTitle: string;
  readonly noScores: string;
  readonly pdf: string;
  readonly openPdf: string;
  readonly downloadPdf: string;
  readonly participantLink: string;
  readonly actions: string;
  readonly recalc: string;
  readonly recalcHint: string;
  readonly recalculated: string;
  readonly changeLanguage: string;
  readonly languageTitle: string;
  readonly languageLabel: string;
  readonly languageSave: string;
  readonly languageChanged: string;
  readonly delete: string;
  readonly deleteTitle: string;
  /** "Report {id} about {name} will be deleted. This cannot be undone." */
  readonly deleteWarning: string;
  readonly deleteConfirm: string;
  readonly cancel: string;
  /** "Report {id} was deleted." */
  readonly deleted: string;
  readonly backToList: string;
  readonly variantGone: string;
}

const enUS: ReportsStrings = {
  nav: 'Reports',
  title: 'Reports',
  filters: 'Filter reports',
  variant: 'Variant',
  type: 'Type',
  campaign: 'Campaign',
  anyVariant: 'Any variant',
  anyType: 'Any type',
  anyCampaign: 'Any campaign',
  from: 'From',
  to: 'To',
  dateHint: 'A date, for example 2026-11-25',
  name: 'Name',
  nameHint: 'The beginning of the first or last name',
  apply: 'Apply filters',
  clear: 'Clear filters',
  caption: 'Reports, newest first',
  filteredCaption: 'Reports matching the filters, newest first',
  noReports: 'There are no reports yet.',
  noMatches: 'No reports match these filters.',
  colSubject: 'Subject',
  colDate: 'Date',
  colVariant: 'Variant',
  colType: 'Type',
  colLanguage: 'Language',
  colCampaign: 'Campaign',
  noSubject: 'No subject',
  types: {
    personal: 'Personal',
    group: 'Group',
    groupanon: 'Anonymous group',
    condensed: 'Condensed',
    complete: 'Complete',
  },
  reportTitle: 'Report {id}',
  summary: 'Summary',
  member: 'Member',
  date: 'Date',
  language: 'Language',
  lastOpened: 'PDF last opened',
  never: 'Never',
  scores: 'Scores',
  scoresCaption: 'Scores per dimension and facet, from 0 to 100',
  colDimension: 'Dimension or facet',
  colScore: 'Score',
  colBand: 'Band',
  chartTitle: 'Bar chart of the scores; the table above gives the same values',
  noScores: 'This report has no scores per dimension.',
  pdf: 'The PDF',
  openPdf: 'Open the PDF',
  downloadPdf: 'Download the PDF',
  participantLink: "Participant's report link",
  actions: 'Actions',
  recalc: 'Recalculate',
  recalcHint: 'Scores the answers again with the current definition of the variant.',
  recalculated: 'The report was recalculated.',
  changeLanguage: 'Change the language',
  languageTitle: 'Change the language of report {id}',
  languageLabel: 'Language of the report',
  languageSave: 'Save the language',
  languageChanged: 'The language of the report was changed.',
  delete: 'Delete the report',
  deleteTitle: 'Delete report {id}?',
  deleteWarning: 'Report {id} about {name} will be deleted. This cannot be undone.',
  deleteConfirm: 'Yes, delete the report',
  cancel: 'Cancel',
  deleted: 'Report {id} was deleted.',
  backToList: 'Back to the reports',
  variantGone: 'The variant of this report is no longer installed.',
};

const nlNL: ReportsStrings = {
  nav: 'Rapporten',
  title: 'Rapporten',
  filters: 'Rapporten filteren',
  variant: 'Variant',
  type: 'Soort',
  campaign: 'Campagne',
  anyVariant: 'Alle varianten',
  anyType: 'Alle soorten',
  anyCampaign: 'Alle campagnes',
  from: 'Vanaf',
  to: 'Tot en met',
  dateHint: 'Een datum, bijvoorbeeld 2026-11-25',
  name: 'Naam',
  nameHint: 'Het begin van de voornaam of achternaam',
  apply: 'Filters toepassen',
  clear: 'Filters wissen',
  caption: 'Rapporten, nieuwste eerst',
  filteredCaption: 'Rapporten die aan de filters voldoen, nieuwste eerst',
  noReports: 'Er zijn nog geen rapporten.',
  noMatches: 'Geen rapporten voldoen aan deze filters.',
  colSubject: 'Betrokkene',
  colDate: 'Datum',
  colVariant: 'Variant',
  colType: 'Soort',
  colLanguage: 'Taal',
  colCampaign: 'Campagne',
  noSubject: 'Geen betrokkene',
  types: {
    personal: 'Persoonlijk',
    group: 'Groep',
    groupanon: 'Anonieme groep',
    condensed: 'Beknopt',
    complete: 'Volledig',
  },
  reportTitle: 'Rapport {id}',
  summary: 'Overzicht',
  member: 'Lid',
  date: 'Datum',
  language: 'Taal',
  lastOpened: 'Pdf laatst geopend',
  never: 'Nooit',
  scores: 'Scores',
  scoresCaption: 'Scores per dimensie en facet, van 0 tot 100',
  colDimension: 'Dimensie of facet',
  colScore: 'Score',
  colBand: 'Niveau',
  chartTitle: 'Staafdiagram van de scores; de tabel hierboven geeft dezelfde waarden',
  noScores: 'Dit rapport heeft geen scores per dimensie.',
  pdf: 'De pdf',
  openPdf: 'De pdf openen',
  downloadPdf: 'De pdf downloaden',
  participantLink: 'Rapportlink van de deelnemer',
  actions: 'Acties',
  recalc: 'Opnieuw berekenen',
  recalcHint: 'Berekent de scores opnieuw met de huidige definitie van de variant.',
  recalculated: 'Het rapport is opnieuw berekend.',
  changeLanguage: 'De taal wijzigen',
  languageTitle: 'De taal van rapport {id} wijzigen',
  languageLabel: 'Taal van het rapport',
  languageSave: 'De taal opslaan',
  languageChanged: 'De taal van het rapport is gewijzigd.',
  delete: 'Het rapport verwijderen',
  deleteTitle: 'Rapport {id} verwijderen?',
  deleteWarning: 'Rapport {id} over {name} wordt verwijderd. Dit kan niet ongedaan worden gemaakt.',
  deleteConfirm: 'Ja, het rapport verwijderen',
  cancel: 'Annuleren',
  deleted: 'Rapport {id} is verwijderd.',
  backToList: 'Terug naar de rapporten',
  variantGone: 'De variant van dit rapport is niet meer geïnstalleerd.',
};

const esES: ReportsStrings = {
  nav: 'Informes',
  title: 'Informes',
  filters: 'Filtrar informes',
  variant: 'Variante',
  type: 'Tipo',
  campaign: 'Campaña',
  anyVariant: 'Cualquier variante',
  anyType: 'Cualquier tipo',
  anyCampaign: 'Cualquier campaña',
  from: 'Desde',
  to: 'Hasta',
  dateHint: 'Una fecha, por ejemplo 2026-11-25',
  name: 'Nombre',
  nameHint: 'El comienzo del nombre o del apellido',
  apply: 'Aplicar los filtros',
  clear: 'Borrar los filtros',
  caption: 'Informes, los más recientes primero',
  filteredCaption: 'Informes que cumplen los filtros, los más recientes primero',
  noReports: 'Todavía no hay informes.',
  noMatches: 'Ningún informe cumple estos filtros.',
  colSubject: 'Persona evaluada',
  colDate: 'Fecha',
  colVariant: 'Variante',
  colType: 'Tipo',
  colLanguage: 'Idioma',
  colCampaign: 'Campaña',
  noSubject: 'Sin persona evaluada',
  types: {
    personal: 'Personal',
    group: 'De grupo',
    groupanon: 'De grupo anónimo',
    condensed: 'Resumido',
    complete: 'Completo',
  },
  reportTitle: 'Informe {id}',
  summary: 'Resumen',
  member: 'Miembro',
  date: 'Fecha',
  language: 'Idioma',
  lastOpened: 'Última apertura del PDF',
  never: 'Nunca',
  scores: 'Puntuaciones',
  scoresCaption: 'Puntuaciones por dimensión y faceta, de 0 a 100',
  colDimension: 'Dimensión o faceta',
  colScore: 'Puntuación',
  colBand: 'Nivel',
  chartTitle: 'Gráfico de barras de las puntuaciones; la tabla anterior ofrece los mismos valores',
  noScores: 'Este informe no tiene puntuaciones por dimensión.',
  pdf: 'El PDF',
  openPdf: 'Abrir el PDF',
  downloadPdf: 'Descargar el PDF',
  participantLink: 'Enlace al informe del participante',
  actions: 'Acciones',
  recalc: 'Volver a calcular',
  recalcHint: 'Vuelve a puntuar las respuestas con la definición actual de la variante.',
  recalculated: 'El informe se ha vuelto a calcular.',
  changeLanguage: 'Cambiar el idioma',
  languageTitle: 'Cambiar el idioma del informe {id}',
  languageLabel: 'Idioma del informe',
  languageSave: 'Guardar el idioma',
  languageChanged: 'Se ha cambiado el idioma del informe.',
  delete: 'Eliminar el informe',
  deleteTitle: '¿Desea eliminar el informe {id}?',
  deleteWarning: 'Se eliminará el informe {id} sobre {name}. Esta acción no se puede deshacer.',
  deleteConfirm: 'Sí, eliminar el informe',
  cancel: 'Cancelar',
  deleted: 'Se ha eliminado el informe {id}.',
  backToList: 'Volver a los informes',
  variantGone: 'La variante de este informe ya no está instalada.',
};

const frFR: ReportsStrings = {
  nav: 'Rapports',
  title: 'Rapports',
  filters: 'Filtrer les rapports',
  variant: 'Variante',
  type: 'Type',
  campaign: 'Campagne',
  anyVariant: 'Toutes les variantes',
  anyType: 'Tous les types',
  anyCampaign: 'Toutes les campagnes',
  from: 'Du',
  to: 'Au',
  dateHint: 'Une date, par exemple 2026-11-25',
  name: 'Nom',
  nameHint: 'Le début du prénom ou du nom',
  apply: 'Appliquer les filtres',
  clear: 'Effacer les filtres',
  caption: 'Rapports, les plus récents en premier',
  filteredCaption: 'Rapports correspondant aux filtres, les plus récents en premier',
  noReports: "Il n'y a encore aucun rapport.",
  noMatches: 'Aucun rapport ne correspond à ces filtres.',
  colSubject: 'Personne évaluée',
  colDate: 'Date',
  colVariant: 'Variante',
  colType: 'Type',
  colLanguage: 'Langue',
  colCampaign: 'Campagne',
  noSubject: 'Aucune personne évaluée',
  types: {
    personal: 'Personnel',
    group: 'De groupe',
    groupanon: 'De groupe anonyme',
    condensed: 'Condensé',
    complete: 'Complet',
  },
  reportTitle: 'Rapport {id}',
  summary: 'Résumé',
  member: 'Membre',
  date: 'Date',
  language: 'Langue',
  lastOpened: 'Dernière ouverture du PDF',
  never: 'Jamais',
  scores: 'Scores',
  scoresCaption: 'Scores par dimension et facette, de 0 à 100',
  colDimension: 'Dimension ou facette',
  colScore: 'Score',
  colBand: 'Niveau',
  chartTitle: 'Diagramme en barres des scores ; le tableau ci-dessus donne les mêmes valeurs',
  noScores: "Ce rapport n'a pas de scores par dimension.",
  pdf: 'Le PDF',
  openPdf: 'Ouvrir le PDF',
  downloadPdf: 'Télécharger le PDF',
  participantLink: 'Lien du rapport du participant',
  actions: 'Actions',
  recalc: 'Recalculer',
  recalcHint: 'Recalcule les scores des réponses avec la définition actuelle de la variante.',
  recalculated: 'Le rapport a été recalculé.',
  changeLanguage: 'Changer la langue',
  languageTitle: 'Changer la langue du rapport {id}',
  languageLabel: 'Langue du rapport',
  languageSave: 'Enregistrer la langue',
  languageChanged: 'La langue du rapport a été modifiée.',
  delete: 'Supprimer le rapport',
  deleteTitle: 'Supprimer le rapport {id} ?',
  deleteWarning: 'Le rapport {id} concernant {name} sera supprimé. Cette action est irréversible.',
  deleteConfirm: 'Oui, supprimer le rapport',
  cancel: 'Annuler',
  deleted: 'Le rapport {id} a été supprimé.',
  backToList: 'Retour aux rapports',
  variantGone: "La variante de ce rapport n'est plus installée.",
};

const BY_LANGUAGE: Readonly<Partial<Record<Language, ReportsStrings>>> = { enUS, nlNL, esES, frFR };

export function reportsStrings(language: Language): ReportsStrings {
  return BY_LANGUAGE[language] ?? enUS;
}
