import type { Language } from '../variants/variant.types.js';

/** The words of the branding page (console/views/branding.view.ts), in the console's four languages. */
export interface BrandingStrings {
  readonly nav: string;
  readonly title: string;
  readonly intro: string;
  readonly agencyName: string;
  readonly agencyNameHint: string;
  readonly agencyFooter: string;
  readonly agencyFooterHint: string;
  readonly color: string;
  /** "#rrggbb, dark enough to read on white (at least {ratio}:1)." */
  readonly colorHint: string;
  readonly colorPicker: string;
  readonly save: string;
  readonly preview: string;
  readonly previewHeading: string;
  readonly previewHint: string;
  readonly previewAlt: string;
  readonly saved: string;
  /** What the sample cover says, in place of a real report's words. */
  readonly sampleTitle: string;
  readonly sampleName: string;
  readonly sampleInstrument: string;
  readonly sampleDescription: string;
}

const enUS: BrandingStrings = {
  nav: 'Branding',
  title: 'Branding of your reports',
  intro: 'Your agency’s name, footer and colour appear on the reports of the campaigns you own.',
  agencyName: 'Agency name',
  agencyNameHint: 'One line. Leave empty to use the instance’s name.',
  agencyFooter: 'Footer',
  agencyFooterHint: 'Printed at the foot of every page, for example an address. Several lines are allowed.',
  color: 'Colour',
  colorHint: 'As #rrggbb. It must be dark enough to read on white: at least {ratio}:1 (WCAG AA).',
  colorPicker: 'Pick a colour',
  save: 'Save branding',
  preview: 'Preview without saving',
  previewHeading: 'The report cover',
  previewHint: 'A sample cover drawn with the values above.',
  previewAlt: 'A sample report cover with this agency name, footer and colour',
  saved: 'Your branding has been saved.',
  sampleTitle: 'Personal report',
  sampleName: 'Sample participant',
  sampleInstrument: 'Sample questionnaire',
  sampleDescription: 'This report describes the answers given to the questionnaire.',
};

const nlNL: BrandingStrings = {
  nav: 'Huisstijl',
  title: 'Huisstijl van uw rapporten',
  intro: 'De naam, voettekst en kleur van uw bureau staan op de rapporten van de campagnes die u beheert.',
  agencyName: 'Naam van het bureau',
  agencyNameHint: 'Eén regel. Laat leeg om de naam van de installatie te gebruiken.',
  agencyFooter: 'Voettekst',
  agencyFooterHint: 'Onder aan elke pagina gedrukt, bijvoorbeeld een adres. Meerdere regels zijn toegestaan.',
  color: 'Kleur',
  colorHint:
    'Als #rrggbb. De kleur moet donker genoeg zijn om op wit te lezen: minstens {ratio}:1 (WCAG AA).',
  colorPicker: 'Kies een kleur',
  save: 'Huisstijl opslaan',
  preview: 'Voorbeeld zonder opslaan',
  previewHeading: 'Het voorblad van het rapport',
  previewHint: 'Een voorbeeldvoorblad, getekend met de waarden hierboven.',
  previewAlt: 'Een voorbeeldvoorblad van een rapport met deze bureaunaam, voettekst en kleur',
  saved: 'Uw huisstijl is opgeslagen.',
  sampleTitle: 'Persoonlijk rapport',
  sampleName: 'Voorbeelddeelnemer',
  sampleInstrument: 'Voorbeeldvragenlijst',
  sampleDescription: 'Dit rapport beschrijft de antwoorden op de vragenlijst.',
};

const esES: BrandingStrings = {
  nav: 'Imagen corporativa',
  title: 'Imagen corporativa de sus informes',
  intro:
    'El nombre, el pie de página y el color de su agencia aparecen en los informes de las campañas que usted gestiona.',
  agencyName: 'Nombre de la agencia',
  agencyNameHint: 'Una línea. Déjelo vacío para usar el nombre de la instalación.',
  agencyFooter: 'Pie de página',
  agencyFooterHint: 'Se imprime al pie de cada página, por ejemplo una dirección. Se permiten varias líneas.',
  color: 'Color',
  colorHint:
    'Como #rrggbb. Debe ser lo bastante oscuro para leerse sobre blanco: al menos {ratio}:1 (WCAG AA).',
  colorPicker: 'Elija un color',
  save: 'Guardar imagen corporativa',
  preview: 'Vista previa sin guardar',
  previewHeading: 'La portada del informe',
  previewHint: 'Una portada de ejemplo dibujada con los valores anteriores.',
  previewAlt: 'Una portada de informe de ejemplo con este nombre de agencia, pie de página y color',
  saved: 'Su imagen corporativa se ha guardado.',
  sampleTitle: 'Informe personal',
  sampleName: 'Participante de ejemplo',
  sampleInstrument: 'Cuestionario de ejemplo',
  sampleDescription: 'Este informe describe las respuestas dadas al cuestionario.',
};

const frFR: BrandingStrings = {
  nav: 'Identité visuelle',
  title: 'Identité visuelle de vos rapports',
  intro:
    'Le nom, le pied de page et la couleur de votre agence figurent sur les rapports des campagnes que vous gérez.',
  agencyName: 'Nom de l’agence',
  agencyNameHint: 'Une ligne. Laissez vide pour utiliser le nom de l’installation.',
  agencyFooter: 'Pied de page',
  agencyFooterHint: 'Imprimé au bas de chaque page, par exemple une adresse. Plusieurs lignes sont permises.',
  color: 'Couleur',
  colorHint:
    'Au format #rrggbb. Elle doit être assez foncée pour se lire sur du blanc : au moins {ratio}:1 (WCAG AA).',
  colorPicker: 'Choisissez une couleur',
  save: 'Enregistrer l’identité visuelle',
  preview: 'Aperçu sans enregistrer',
  previewHeading: 'La couverture du rapport',
  previewHint: 'Une couverture d’exemple dessinée avec les valeurs ci-dessus.',
  previewAlt: 'Une couverture de rapport d’exemple avec ce nom d’agence, ce pied de page et cette couleur',
  saved: 'Votre identité visuelle a été enregistrée.',
  sampleTitle: 'Rapport personnel',
  sampleName: 'Participant d’exemple',
  sampleInstrument: 'Questionnaire d’exemple',
  sampleDescription: 'Ce rapport décrit les réponses données au questionnaire.',
};

const STRINGS: Readonly<Record<Language, BrandingStrings>> = { enUS, nlNL, esES, frFR };

export const brandingStrings = (language: Language): BrandingStrings => STRINGS[language];
