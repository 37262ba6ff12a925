import type { Language } from '../variants/variant.types.js';

/**
 * The words of the console's import of answers as reports (views/report-import.view.ts), in its
 * four languages. Messages about a row or a whole file are the API's own, as it answers them.
 */
export interface ReportImportStrings {
  /** The link on the reports list. */
  readonly importLink: string;
  readonly title: string;
  readonly intro: string;
  readonly csvColumns: string;
  readonly jsonShape: string;
  readonly variantLabel: string;
  readonly variantHint: string;
  readonly chooseVariant: string;
  readonly noVariant: string;
  readonly samplesTitle: string;
  readonly samplesIntro: string;
  /** "Sample CSV for {name}" */
  readonly sampleLink: string;
  readonly fileLabel: string;
  /** "Saved as UTF-8, up to {size} MB and {rows} rows." */
  readonly fileHint: string;
  readonly pasteLabel: string;
  readonly pasteHint: string;
  readonly checkFile: string;
  readonly cancel: string;
  readonly noFile: string;
  readonly notUtf8: string;
  /** "The file must be smaller than {size} MB" */
  readonly tooLarge: string;
  /** "There are problems with {name}" */
  readonly problemsTitle: string;
  readonly problemsBody: string;
  /** "{name} is no longer installed, so these answers cannot be checked." */
  readonly variantGone: string;
  /** "Only showing the first {count} rows with errors" */
  readonly onlyFirstErrors: string;
  readonly errorsCaption: string;
  readonly colRow: string;
  readonly colProblem: string;
  readonly colMember: string;
  readonly colCampaign: string;
  readonly colLanguage: string;
  readonly colDate: string;
  readonly colRole: string;
  readonly colAnswers: string;
  readonly uploadAgain: string;
  /** "Check {name} before you import it" */
  readonly checkTitle: string;
  /** "{count} rows are ready to become {variant} reports. Nothing has been written yet." */
  readonly checkBody: string;
  /** "Only showing the first {count} rows" */
  readonly onlyFirstRows: string;
  readonly rowsCaption: string;
  /** "Import {count} reports" */
  readonly importButton: string;
  readonly importButtonOne: string;
  readonly doneTitle: string;
  /** "Reports made: {count}" */
  readonly doneCreated: string;
  /** "Rows refused: {count}" */
  readonly doneRefused: string;
  readonly goToReports: string;
  readonly uploadGoneTitle: string;
  readonly uploadGoneBody: string;
}

const enUS: ReportImportStrings = {
  importLink: 'Import answers as reports',
  title: 'Import answers as reports',
  intro:
    'Upload the answers of existing members as a CSV or JSON file. Each row becomes a personal report. Nothing is imported until you have checked the rows and confirmed.',
  csvColumns:
    'A CSV file has a header row with a memberid or email column, then optional campaignid, language, date and role columns, then one column per question code. Empty cells are unanswered questions.',
  jsonShape:
    'A JSON file holds {"reports": [{"email": "…", "answers": {"Q1": 4}}]}, as POST /reports/import takes it.',
  variantLabel: 'Questionnaire',
  variantHint: 'The questionnaire (variant) the answers were given to.',
  chooseVariant: 'Choose a questionnaire',
  noVariant: 'Choose the questionnaire the answers belong to',
  samplesTitle: 'Sample files',
  samplesIntro: 'A CSV file with the header row of a questionnaire, to fill in:',
  sampleLink: 'Sample CSV for {name}',
  fileLabel: 'CSV or JSON file',
  fileHint: 'Saved as UTF-8, up to {size} MB and {rows} rows.',
  pasteLabel: 'Or paste the rows of the file',
  pasteHint: 'Used only when no file is chosen.',
  checkFile: 'Check the file',
  cancel: 'Cancel',
  noFile: 'Choose a CSV or JSON file, or paste its rows',
  notUtf8: 'The file must be saved as UTF-8',
  tooLarge: 'The file must be smaller than {size} MB',
  problemsTitle: 'There are problems with {name}',
  problemsBody: 'Fix these rows in the file and upload it again. Nothing has been imported.',
  variantGone: '{name} is no longer installed, so these answers cannot be imported.',
  onlyFirstErrors: 'Only showing the first {count} rows with errors',
  errorsCaption: 'Rows with errors',
  colRow: 'Row',
  colProblem: 'Problem',
  colMember: 'Member',
  colCampaign: 'Campaign',
  colLanguage: 'Language',
  colDate: 'Date',
  colRole: 'Role',
  colAnswers: 'Answers',
  uploadAgain: 'Upload your file again',
  checkTitle: 'Check {name} before you import it',
  checkBody: '{count} rows are ready to become {variant} reports. Nothing has been written yet.',
  onlyFirstRows: 'Only showing the first {count} rows',
  rowsCaption: 'Rows of the file, as they will be imported',
  importButton: 'Import {count} reports',
  importButtonOne: 'Import 1 report',
  doneTitle: 'Import finished',
  doneCreated: 'Reports made: {count}',
  doneRefused: 'Rows refused: {count}',
  goToReports: 'Go to the reports',
  uploadGoneTitle: 'This upload cannot be imported',
  uploadGoneBody: 'It has expired, or it was uploaded in another session. Upload the file again.',
};

const nlNL: ReportImportStrings = {
  importLink: 'Antwoorden importeren als rapporten',
  title: 'Antwoorden importeren als rapporten',
  intro:
    'Upload de antwoorden van bestaande deelnemers als CSV- of JSON-bestand. Elke regel wordt een persoonlijk rapport. Er wordt niets geïmporteerd voordat u de regels hebt gecontroleerd en bevestigd.',
  csvColumns:
    'Een CSV-bestand heeft een kopregel met een kolom memberid of email, dan de optionele kolommen campaignid, language, date en role, dan een kolom per vraagcode. Lege cellen zijn onbeantwoorde vragen.',
  jsonShape:
    'Een JSON-bestand bevat {"reports": [{"email": "…", "answers": {"Q1": 4}}]}, zoals POST /reports/import het aanneemt.',
  variantLabel: 'Vragenlijst',
  variantHint: 'De vragenlijst (variant) waarop de antwoorden zijn gegeven.',
  chooseVariant: 'Kies een vragenlijst',
  noVariant: 'Kies de vragenlijst waar de antwoorden bij horen',
  samplesTitle: 'Voorbeeldbestanden',
  samplesIntro: 'Een CSV-bestand met de kopregel van een vragenlijst, om in te vullen:',
  sampleLink: 'Voorbeeld-CSV voor {name}',
  fileLabel: 'CSV- of JSON-bestand',
  fileHint: 'Opgeslagen als UTF-8, tot {size} MB en {rows} regels.',
  pasteLabel: 'Of plak de regels van het bestand',
  pasteHint: 'Alleen gebruikt als er geen bestand is gekozen.',
  checkFile: 'Het bestand controleren',
  cancel: 'Annuleren',
  noFile: 'Kies een CSV- of JSON-bestand, of plak de regels ervan',
  notUtf8: 'Het bestand moet als UTF-8 zijn opgeslagen',
  tooLarge: 'Het bestand moet kleiner zijn dan {size} MB',
  problemsTitle: 'Er zijn problemen met {name}',
  problemsBody: 'Verbeter deze regels in het bestand en upload het opnieuw. Er is niets geïmporteerd.',
  variantGone: '{name} is niet meer geïnstalleerd, dus deze antwoorden kunnen niet worden geïmporteerd.',
  onlyFirstErrors: 'Alleen de eerste {count} regels met fouten worden getoond',
  errorsCaption: 'Regels met fouten',
  colRow: 'Regel',
  colProblem: 'Probleem',
  colMember: 'Deelnemer',
  colCampaign: 'Campagne',
  colLanguage: 'Taal',
  colDate: 'Datum',
  colRole: 'Rol',
  colAnswers: 'Antwoorden',
  uploadAgain: 'Uw bestand opnieuw uploaden',
  checkTitle: 'Controleer {name} voordat u het importeert',
  checkBody: '{count} regels zijn klaar om {variant}-rapporten te worden. Er is nog niets opgeslagen.',
  onlyFirstRows: 'Alleen de eerste {count} regels worden getoond',
  rowsCaption: 'Regels van het bestand, zoals ze worden geïmporteerd',
  importButton: '{count} rapporten importeren',
  importButtonOne: '1 rapport importeren',
  doneTitle: 'Import voltooid',
  doneCreated: 'Rapporten gemaakt: {count}',
  doneRefused: 'Regels geweigerd: {count}',
  goToReports: 'Naar de rapporten',
  uploadGoneTitle: 'Deze upload kan niet worden geïmporteerd',
  uploadGoneBody: 'Hij is verlopen, of hij is in een andere sessie geüpload. Upload het bestand opnieuw.',
};

const esES: ReportImportStrings = {
  importLink: 'Importar respuestas como informes',
  title: 'Importar respuestas como informes',
  intro:
    'Suba las respuestas de participantes existentes en un archivo CSV o JSON. Cada fila se convierte en un informe personal. No se importa nada hasta que usted haya revisado las filas y lo haya confirmado.',
  csvColumns:
    'Un archivo CSV tiene una fila de encabezado con una columna memberid o email, después las columnas opcionales campaignid, language, date y role, y después una columna por código de pregunta. Las celdas vacías son preguntas sin responder.',
  jsonShape:
    'Un archivo JSON contiene {"reports": [{"email": "…", "answers": {"Q1": 4}}]}, tal como lo acepta POST /reports/import.',
  variantLabel: 'Cuestionario',
  variantHint: 'El cuestionario (variante) al que corresponden las respuestas.',
  chooseVariant: 'Elija un cuestionario',
  noVariant: 'Elija el cuestionario al que pertenecen las respuestas',
  samplesTitle: 'Archivos de ejemplo',
  samplesIntro: 'Un archivo CSV con la fila de encabezado de un cuestionario, para completar:',
  sampleLink: 'CSV de ejemplo para {name}',
  fileLabel: 'Archivo CSV o JSON',
  fileHint: 'Guardado en UTF-8, de hasta {size} MB y {rows} filas.',
  pasteLabel: 'O pegue las filas del archivo',
  pasteHint: 'Solo se usa si no se ha elegido ningún archivo.',
  checkFile: 'Revisar el archivo',
  cancel: 'Cancelar',
  noFile: 'Elija un archivo CSV o JSON, o pegue sus filas',
  notUtf8: 'El archivo debe guardarse en UTF-8',
  tooLarge: 'El archivo debe ocupar menos de {size} MB',
  problemsTitle: 'Hay problemas con {name}',
  problemsBody: 'Corrija estas filas en el archivo y vuelva a subirlo. No se ha importado nada.',
  variantGone: '{name} ya no está instalado, por lo que estas respuestas no se pueden importar.',
  onlyFirstErrors: 'Solo se muestran las primeras {count} filas con errores',
  errorsCaption: 'Filas con errores',
  colRow: 'Fila',
  colProblem: 'Problema',
  colMember: 'Participante',
  colCampaign: 'Campaña',
  colLanguage: 'Idioma',
  colDate: 'Fecha',
  colRole: 'Rol',
  colAnswers: 'Respuestas',
  uploadAgain: 'Volver a subir el archivo',
  checkTitle: 'Revise {name} antes de importarlo',
  checkBody:
    '{count} filas están listas para convertirse en informes de {variant}. Todavía no se ha guardado nada.',
  onlyFirstRows: 'Solo se muestran las primeras {count} filas',
  rowsCaption: 'Filas del archivo, tal como se importarán',
  importButton: 'Importar {count} informes',
  importButtonOne: 'Importar 1 informe',
  doneTitle: 'Importación terminada',
  doneCreated: 'Informes creados: {count}',
  doneRefused: 'Filas rechazadas: {count}',
  goToReports: 'Ir a los informes',
  uploadGoneTitle: 'Este archivo subido no se puede importar',
  uploadGoneBody: 'Ha caducado o se subió en otra sesión. Vuelva a subir el archivo.',
};

const frFR: ReportImportStrings = {
  importLink: 'Importer des réponses comme rapports',
  title: 'Importer des réponses comme rapports',
  intro:
    'Téléversez les réponses de participants existants dans un fichier CSV ou JSON. Chaque ligne devient un rapport personnel. Rien n’est importé avant que vous ayez vérifié les lignes et confirmé.',
  csvColumns:
    'Un fichier CSV a une ligne d’en-tête avec une colonne memberid ou email, puis les colonnes facultatives campaignid, language, date et role, puis une colonne par code de question. Les cellules vides sont des questions sans réponse.',
  jsonShape:
    'Un fichier JSON contient {"reports": [{"email": "…", "answers": {"Q1": 4}}]}, tel que POST /reports/import l’accepte.',
  variantLabel: 'Questionnaire',
  variantHint: 'Le questionnaire (variante) auquel les réponses ont été données.',
  chooseVariant: 'Choisissez un questionnaire',
  noVariant: 'Choisissez le questionnaire auquel appartiennent les réponses',
  samplesTitle: 'Fichiers d’exemple',
  samplesIntro: 'Un fichier CSV avec la ligne d’en-tête d’un questionnaire, à remplir :',
  sampleLink: 'CSV d’exemple pour {name}',
  fileLabel: 'Fichier CSV ou JSON',
  fileHint: 'Enregistré en UTF-8, jusqu’à {size} Mo et {rows} lignes.',
  pasteLabel: 'Ou collez les lignes du fichier',
  pasteHint: 'Utilisé seulement si aucun fichier n’est choisi.',
  checkFile: 'Vérifier le fichier',
  cancel: 'Annuler',
  noFile: 'Choisissez un fichier CSV ou JSON, ou collez ses lignes',
  notUtf8: 'Le fichier doit être enregistré en UTF-8',
  tooLarge: 'Le fichier doit faire moins de {size} Mo',
  problemsTitle: 'Il y a des problèmes dans {name}',
  problemsBody: 'Corrigez ces lignes dans le fichier et téléversez-le à nouveau. Rien n’a été importé.',
  variantGone: '{name} n’est plus installé : ces réponses ne peuvent pas être importées.',
  onlyFirstErrors: 'Seules les {count} premières lignes avec des erreurs sont affichées',
  errorsCaption: 'Lignes avec des erreurs',
  colRow: 'Ligne',
  colProblem: 'Problème',
  colMember: 'Participant',
  colCampaign: 'Campagne',
  colLanguage: 'Langue',
  colDate: 'Date',
  colRole: 'Rôle',
  colAnswers: 'Réponses',
  uploadAgain: 'Téléverser à nouveau votre fichier',
  checkTitle: 'Vérifiez {name} avant de l’importer',
  checkBody: '{count} lignes sont prêtes à devenir des rapports {variant}. Rien n’a encore été enregistré.',
  onlyFirstRows: 'Seules les {count} premières lignes sont affichées',
  rowsCaption: 'Lignes du fichier, telles qu’elles seront importées',
  importButton: 'Importer {count} rapports',
  importButtonOne: 'Importer 1 rapport',
  doneTitle: 'Importation terminée',
  doneCreated: 'Rapports créés : {count}',
  doneRefused: 'Lignes refusées : {count}',
  goToReports: 'Aller aux rapports',
  uploadGoneTitle: 'Ce fichier ne peut pas être importé',
  uploadGoneBody:
    'Il a expiré, ou il a été téléversé dans une autre session. Téléversez à nouveau le fichier.',
};

const byLanguage: Record<Language, ReportImportStrings> = { enUS, nlNL, esES, frFR };

export function reportImportStrings(language: Language): ReportImportStrings {
  return byLanguage[language];
}
