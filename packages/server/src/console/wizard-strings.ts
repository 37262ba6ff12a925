import type { Language, MailStage } from '../variants/variant.types.js';

/**
 * The campaign wizard's words and the mail previews', in the console's four languages (the shape
 * of strings.ts). `{name}`-style placeholders are filled by `fill` (pages/strings.ts). The rules'
 * messages are the API's own (`field: problem`), shown as the API gives them.
 */
export interface WizardStrings {
  readonly caption: string;
  readonly continue: string;
  /** A choice no API field holds was not made. */
  readonly chooseOne: string;
  readonly day: string;
  readonly month: string;
  readonly year: string;
  readonly time: string;
  readonly timeHint: string;
  readonly yes: string;
  readonly no: string;
  readonly days: string;
  readonly weeks: string;
  /** Lengths of time in a sentence: one day, several days, one week, several weeks. */
  readonly spanDay: string;
  readonly spanDays: string;
  readonly spanWeek: string;
  readonly spanWeeks: string;
  /** "About {minutes} minutes" */
  readonly minutes: string;
  readonly languages: string;

  readonly nameQuestion: string;
  readonly nameHint: string;
  readonly variantQuestion: string;
  readonly variantHint: string;
  readonly languageQuestion: string;
  readonly languageHint: string;
  readonly startQuestion: string;
  readonly dateHint: string;
  readonly closingQuestion: string;
  readonly closingDate: string;
  readonly closingDateHint: string;
  readonly closingAuto: string;
  readonly closingAutoHint: string;
  readonly closingOpen: string;
  readonly closingOpenHint: string;
  readonly endQuestion: string;
  readonly participationQuestion: string;
  readonly participationMembers: string;
  readonly participationMembersHint: string;
  readonly participationSignup: string;
  readonly participationSignupHint: string;
  readonly participationRegister: string;
  readonly participationRegisterHint: string;
  readonly signupQuestion: string;
  /** "People sign up at {link}" */
  readonly signupIntro: string;
  readonly aliasLabel: string;
  readonly aliasHint: string;
  readonly maxLabel: string;
  readonly maxHint: string;
  readonly invitationQuestion: string;
  readonly inviteNone: string;
  readonly inviteNoneHint: string;
  readonly inviteInstant: string;
  readonly inviteInstantHint: string;
  readonly inviteFixed: string;
  readonly inviteFixedHint: string;
  readonly inviteOffsetQuestion: string;
  readonly amountLabel: string;
  readonly unitLabel: string;
  readonly remindersQuestion: string;
  readonly remindersHint: string;
  readonly reminderScheduleQuestion: string;
  readonly reminderWaitLabel: string;
  readonly reminderWaitHint: string;
  readonly reminderRepeatLabel: string;
  readonly reminderRepeatHint: string;
  readonly mailsQuestion: string;
  readonly mailsHint: string;
  readonly mailConfirmation: string;
  readonly mailReport: string;

  readonly checkTitle: string;
  readonly checkIntro: string;
  readonly create: string;
  readonly rowName: string;
  readonly rowVariant: string;
  readonly rowLanguage: string;
  readonly rowStart: string;
  readonly rowClosing: string;
  readonly rowEnd: string;
  readonly rowParticipation: string;
  readonly rowSignup: string;
  readonly rowMax: string;
  readonly rowInvitation: string;
  readonly rowInviteOffset: string;
  readonly rowReminders: string;
  readonly rowMails: string;
  readonly noLimit: string;
  readonly generatedLink: string;
  readonly none: string;
  /** "{span} after the start" */
  readonly afterStart: string;
  /** "{wait} after the last mail, at most {repeat} reminders" */
  readonly reminderSummary: string;

  readonly previewsTitle: string;
  readonly previewsIntro: string;
  readonly stageNames: Readonly<Record<MailStage, string>>;
  /** "Preview: {stage}" */
  readonly previewTitle: string;
  readonly previewIntro: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly textPart: string;
  readonly openHtml: string;
  readonly backToCheck: string;
  readonly backToCampaign: string;
}

const enUS: WizardStrings = {
  caption: 'Create a campaign',
  continue: 'Continue',
  chooseOne: 'Select one of the options',
  day: 'Day',
  month: 'Month',
  year: 'Year',
  time: 'Time',
  timeHint: '24-hour clock, UTC, for example 09:00. Empty: 00:00.',
  yes: 'Yes',
  no: 'No',
  days: 'Days',
  weeks: 'Weeks',
  spanDay: 'day',
  spanDays: 'days',
  spanWeek: 'week',
  spanWeeks: 'weeks',
  minutes: 'About {minutes} minutes',
  languages: 'Languages: {languages}',

  nameQuestion: 'What is the name of the campaign?',
  nameHint: 'Participants see it in their mails and on the questionnaire.',
  variantQuestion: 'Which questionnaire do participants answer?',
  variantHint: 'It cannot change once the campaign is created.',
  languageQuestion: 'In which language?',
  languageHint: 'Participants get the questionnaire, its mails and their report in this language.',
  startQuestion: 'When does the campaign start?',
  dateHint: 'For example 27 3 2027.',
  closingQuestion: 'How does the campaign close?',
  closingDate: 'On a date you choose',
  closingDateHint: 'The next question asks for the date.',
  closingAuto: 'When every participant has finished',
  closingAutoHint: 'It closes by itself once the last participant completes.',
  closingOpen: 'It stays open',
  closingOpenHint: 'It never closes by itself.',
  endQuestion: 'When does the campaign end?',
  participationQuestion: 'Who may take part?',
  participationMembers: 'Only the members you add',
  participationMembersHint: 'You choose them on the campaign’s page once it is created.',
  participationSignup: 'Also members who sign up with the campaign’s link',
  participationSignupHint: 'Members of this instance join by entering their e-mail address.',
  participationRegister: 'Anyone who signs up with the campaign’s link',
  participationRegisterHint: 'Someone who is not a member yet becomes one by signing up.',
  signupQuestion: 'The sign-up link',
  signupIntro: 'People sign up at {link}',
  aliasLabel: 'End of the link (optional)',
  aliasHint: 'Letters, digits, _ and - only. Leave it empty and one is made when the campaign is created.',
  maxLabel: 'Most participants (optional)',
  maxHint: 'Sign-ups stop once the campaign has this many members. Leave it empty for no limit.',
  invitationQuestion: 'When are the invitations sent?',
  inviteNone: 'When you send them',
  inviteNoneHint: 'From the campaign’s page, to the members you choose.',
  inviteInstant: 'At once',
  inviteInstantHint: 'Each member is invited as soon as they are added to the active campaign.',
  inviteFixed: 'A set time after the start',
  inviteFixedHint: 'The next question asks how long after the start.',
  inviteOffsetQuestion: 'How long after the start are the invitations sent?',
  amountLabel: 'Number',
  unitLabel: 'Days or weeks',
  remindersQuestion: 'Should Assay remind participants who have not finished?',
  remindersHint: 'Reminders stop when the participant completes or the campaign closes.',
  reminderScheduleQuestion: 'How are the reminders sent?',
  reminderWaitLabel: 'Wait before each reminder',
  reminderWaitHint: 'Counted from the invitation or the last reminder.',
  reminderRepeatLabel: 'Most reminders per participant',
  reminderRepeatHint: 'A whole number from 1 to 100.',
  mailsQuestion: 'Which mails does Assay send when a participant finishes?',
  mailsHint: 'Select all that apply, or none.',
  mailConfirmation: 'A confirmation to the participant',
  mailReport: 'The participant’s report, as a link',

  checkTitle: 'Check your answers before creating the campaign',
  checkIntro: 'Nothing is created or sent until you choose “Create campaign”.',
  create: 'Create campaign',
  rowName: 'Name',
  rowVariant: 'Questionnaire',
  rowLanguage: 'Language',
  rowStart: 'Start',
  rowClosing: 'Closes',
  rowEnd: 'End',
  rowParticipation: 'Who may take part',
  rowSignup: 'Sign-up link',
  rowMax: 'Most participants',
  rowInvitation: 'Invitations',
  rowInviteOffset: 'Invitations sent after',
  rowReminders: 'Reminders',
  rowMails: 'Mails when finished',
  noLimit: 'No limit',
  generatedLink: 'Made when the campaign is created',
  none: 'None',
  afterStart: '{span} after the start',
  reminderSummary: '{wait} after the last mail, at most {repeat} reminders',

  previewsTitle: 'The mails participants will receive',
  previewsIntro: 'Each preview shows the mail as a sample member, Alex Sample, would receive it.',
  stageNames: {
    campaign_invitation: 'Invitation',
    campaign_reminder: 'Reminder',
    confirmation_admin: 'Confirmation to the campaign’s admins',
    confirmation_member: 'Confirmation to the participant',
    closing_notification: 'Closing notice to the campaign’s admins',
    campaign_reportdelivery: 'Report delivery',
  },
  previewTitle: 'Preview: {stage}',
  previewIntro: 'This is the mail as the sample member Alex Sample would receive it. Nothing is sent.',
  from: 'From',
  to: 'To',
  subject: 'Subject',
  textPart: 'The text of the mail',
  openHtml: 'Open the HTML version',
  backToCheck: 'Back to your answers',
  backToCampaign: 'Back to the campaign',
};

const nlNL: WizardStrings = {
  caption: 'Een campagne maken',
  continue: 'Doorgaan',
  chooseOne: 'Kies een van de mogelijkheden',
  day: 'Dag',
  month: 'Maand',
  year: 'Jaar',
  time: 'Tijd',
  timeHint: '24-uursklok, UTC, bijvoorbeeld 09:00. Leeg: 00:00.',
  yes: 'Ja',
  no: 'Nee',
  days: 'Dagen',
  weeks: 'Weken',
  spanDay: 'dag',
  spanDays: 'dagen',
  spanWeek: 'week',
  spanWeeks: 'weken',
  minutes: 'Ongeveer {minutes} minuten',
  languages: 'Talen: {languages}',

  nameQuestion: 'Wat is de naam van de campagne?',
  nameHint: 'Deelnemers zien deze naam in hun e-mails en bij de vragenlijst.',
  variantQuestion: 'Welke vragenlijst vullen de deelnemers in?',
  variantHint: 'Dit kan niet meer veranderen als de campagne is gemaakt.',
  languageQuestion: 'In welke taal?',
  languageHint: 'Deelnemers krijgen de vragenlijst, de e-mails en hun rapport in deze taal.',
  startQuestion: 'Wanneer begint de campagne?',
  dateHint: 'Bijvoorbeeld 27 3 2027.',
  closingQuestion: 'Hoe sluit de campagne?',
  closingDate: 'Op een datum die u kiest',
  closingDateHint: 'De volgende vraag gaat over de datum.',
  closingAuto: 'Als alle deelnemers klaar zijn',
  closingAutoHint: 'Ze sluit vanzelf zodra de laatste deelnemer de vragenlijst afrondt.',
  closingOpen: 'Ze blijft open',
  closingOpenHint: 'Ze sluit nooit vanzelf.',
  endQuestion: 'Wanneer eindigt de campagne?',
  participationQuestion: 'Wie mag deelnemen?',
  participationMembers: 'Alleen de leden die u toevoegt',
  participationMembersHint: 'U kiest hen op de pagina van de campagne zodra die is gemaakt.',
  participationSignup: 'Ook leden die zich aanmelden via de link van de campagne',
  participationSignupHint: 'Leden van deze omgeving doen mee door hun e-mailadres in te vullen.',
  participationRegister: 'Iedereen die zich aanmeldt via de link van de campagne',
  participationRegisterHint: 'Wie nog geen lid is, wordt lid door zich aan te melden.',
  signupQuestion: 'De aanmeldlink',
  signupIntro: 'Aanmelden gaat via {link}',
  aliasLabel: 'Einde van de link (optioneel)',
  aliasHint:
    'Alleen letters, cijfers, _ en -. Laat het leeg, dan wordt er een gemaakt als de campagne wordt gemaakt.',
  maxLabel: 'Hoogste aantal deelnemers (optioneel)',
  maxHint: 'Aanmelden stopt zodra de campagne zoveel leden heeft. Laat het leeg voor geen grens.',
  invitationQuestion: 'Wanneer worden de uitnodigingen verstuurd?',
  inviteNone: 'Wanneer u ze verstuurt',
  inviteNoneHint: 'Vanaf de pagina van de campagne, aan de leden die u kiest.',
  inviteInstant: 'Meteen',
  inviteInstantHint: 'Elk lid wordt uitgenodigd zodra het aan de actieve campagne is toegevoegd.',
  inviteFixed: 'Een vaste tijd na het begin',
  inviteFixedHint: 'De volgende vraag gaat over hoe lang na het begin.',
  inviteOffsetQuestion: 'Hoe lang na het begin worden de uitnodigingen verstuurd?',
  amountLabel: 'Aantal',
  unitLabel: 'Dagen of weken',
  remindersQuestion: 'Moet Assay deelnemers herinneren die nog niet klaar zijn?',
  remindersHint: 'Herinneringen stoppen als de deelnemer klaar is of de campagne sluit.',
  reminderScheduleQuestion: 'Hoe worden de herinneringen verstuurd?',
  reminderWaitLabel: 'Wachttijd voor elke herinnering',
  reminderWaitHint: 'Gerekend vanaf de uitnodiging of de laatste herinnering.',
  reminderRepeatLabel: 'Hoogste aantal herinneringen per deelnemer',
  reminderRepeatHint: 'Een heel getal van 1 tot 100.',
  mailsQuestion: 'Welke e-mails verstuurt Assay als een deelnemer klaar is?',
  mailsHint: 'Kies alles wat van toepassing is, of niets.',
  mailConfirmation: 'Een bevestiging aan de deelnemer',
  mailReport: 'Het rapport van de deelnemer, als link',

  checkTitle: 'Controleer uw antwoorden voordat u de campagne maakt',
  checkIntro: 'Er wordt niets gemaakt of verstuurd tot u “Campagne maken” kiest.',
  create: 'Campagne maken',
  rowName: 'Naam',
  rowVariant: 'Vragenlijst',
  rowLanguage: 'Taal',
  rowStart: 'Begin',
  rowClosing: 'Sluit',
  rowEnd: 'Einde',
  rowParticipation: 'Wie mag deelnemen',
  rowSignup: 'Aanmeldlink',
  rowMax: 'Hoogste aantal deelnemers',
  rowInvitation: 'Uitnodigingen',
  rowInviteOffset: 'Uitnodigingen verstuurd na',
  rowReminders: 'Herinneringen',
  rowMails: 'E-mails na afronding',
  noLimit: 'Geen grens',
  generatedLink: 'Gemaakt als de campagne wordt gemaakt',
  none: 'Geen',
  afterStart: '{span} na het begin',
  reminderSummary: '{wait} na de laatste e-mail, hoogstens {repeat} herinneringen',

  previewsTitle: 'De e-mails die deelnemers krijgen',
  previewsIntro: 'Elk voorbeeld toont de e-mail zoals een voorbeeldlid, Alex Sample, hem zou krijgen.',
  stageNames: {
    campaign_invitation: 'Uitnodiging',
    campaign_reminder: 'Herinnering',
    confirmation_admin: 'Bevestiging aan de beheerders van de campagne',
    confirmation_member: 'Bevestiging aan de deelnemer',
    closing_notification: 'Melding van sluiting aan de beheerders van de campagne',
    campaign_reportdelivery: 'Levering van het rapport',
  },
  previewTitle: 'Voorbeeld: {stage}',
  previewIntro:
    'Dit is de e-mail zoals het voorbeeldlid Alex Sample hem zou krijgen. Er wordt niets verstuurd.',
  from: 'Van',
  to: 'Aan',
  subject: 'Onderwerp',
  textPart: 'De tekst van de e-mail',
  openHtml: 'De HTML-versie openen',
  backToCheck: 'Terug naar uw antwoorden',
  backToCampaign: 'Terug naar de campagne',
};

const esES: WizardStrings = {
  caption: 'Crear una campaña',
  continue: 'Continuar',
  chooseOne: 'Seleccione una de las opciones',
  day: 'Día',
  month: 'Mes',
  year: 'Año',
  time: 'Hora',
  timeHint: 'Reloj de 24 horas, UTC, por ejemplo 09:00. Vacío: 00:00.',
  yes: 'Sí',
  no: 'No',
  days: 'Días',
  weeks: 'Semanas',
  spanDay: 'día',
  spanDays: 'días',
  spanWeek: 'semana',
  spanWeeks: 'semanas',
  minutes: 'Unos {minutes} minutos',
  languages: 'Idiomas: {languages}',

  nameQuestion: '¿Cuál es el nombre de la campaña?',
  nameHint: 'Los participantes lo ven en sus correos y en el cuestionario.',
  variantQuestion: '¿Qué cuestionario responden los participantes?',
  variantHint: 'No se puede cambiar una vez creada la campaña.',
  languageQuestion: '¿En qué idioma?',
  languageHint: 'Los participantes reciben el cuestionario, sus correos y su informe en este idioma.',
  startQuestion: '¿Cuándo empieza la campaña?',
  dateHint: 'Por ejemplo 27 3 2027.',
  closingQuestion: '¿Cómo se cierra la campaña?',
  closingDate: 'En una fecha que usted elige',
  closingDateHint: 'La siguiente pregunta le pide la fecha.',
  closingAuto: 'Cuando todos los participantes hayan terminado',
  closingAutoHint: 'Se cierra sola en cuanto el último participante termina.',
  closingOpen: 'Queda abierta',
  closingOpenHint: 'Nunca se cierra sola.',
  endQuestion: '¿Cuándo termina la campaña?',
  participationQuestion: '¿Quién puede participar?',
  participationMembers: 'Solo los miembros que usted añada',
  participationMembersHint: 'Los elige en la página de la campaña una vez creada.',
  participationSignup: 'También los miembros que se inscriban con el enlace de la campaña',
  participationSignupHint: 'Los miembros de esta instancia se unen indicando su dirección de correo.',
  participationRegister: 'Cualquier persona que se inscriba con el enlace de la campaña',
  participationRegisterHint: 'Quien aún no es miembro pasa a serlo al inscribirse.',
  signupQuestion: 'El enlace de inscripción',
  signupIntro: 'La inscripción se hace en {link}',
  aliasLabel: 'Final del enlace (opcional)',
  aliasHint: 'Solo letras, cifras, _ y -. Si lo deja vacío, se genera uno al crear la campaña.',
  maxLabel: 'Número máximo de participantes (opcional)',
  maxHint:
    'Las inscripciones se detienen cuando la campaña tiene tantos miembros. Déjelo vacío para no poner límite.',
  invitationQuestion: '¿Cuándo se envían las invitaciones?',
  inviteNone: 'Cuando usted las envíe',
  inviteNoneHint: 'Desde la página de la campaña, a los miembros que elija.',
  inviteInstant: 'De inmediato',
  inviteInstantHint: 'Cada miembro recibe la invitación en cuanto se añade a la campaña activa.',
  inviteFixed: 'Un tiempo fijo después del inicio',
  inviteFixedHint: 'La siguiente pregunta le pide cuánto tiempo después del inicio.',
  inviteOffsetQuestion: '¿Cuánto tiempo después del inicio se envían las invitaciones?',
  amountLabel: 'Número',
  unitLabel: 'Días o semanas',
  remindersQuestion: '¿Debe Assay enviar recordatorios a quienes no hayan terminado?',
  remindersHint: 'Los recordatorios se detienen cuando el participante termina o la campaña se cierra.',
  reminderScheduleQuestion: '¿Cómo se envían los recordatorios?',
  reminderWaitLabel: 'Espera antes de cada recordatorio',
  reminderWaitHint: 'Contada desde la invitación o el último recordatorio.',
  reminderRepeatLabel: 'Número máximo de recordatorios por participante',
  reminderRepeatHint: 'Un número entero de 1 a 100.',
  mailsQuestion: '¿Qué correos envía Assay cuando un participante termina?',
  mailsHint: 'Seleccione todos los que correspondan, o ninguno.',
  mailConfirmation: 'Una confirmación al participante',
  mailReport: 'El informe del participante, como enlace',

  checkTitle: 'Revise sus respuestas antes de crear la campaña',
  checkIntro: 'No se crea ni se envía nada hasta que elija «Crear campaña».',
  create: 'Crear campaña',
  rowName: 'Nombre',
  rowVariant: 'Cuestionario',
  rowLanguage: 'Idioma',
  rowStart: 'Inicio',
  rowClosing: 'Cierre',
  rowEnd: 'Fin',
  rowParticipation: 'Quién puede participar',
  rowSignup: 'Enlace de inscripción',
  rowMax: 'Número máximo de participantes',
  rowInvitation: 'Invitaciones',
  rowInviteOffset: 'Invitaciones enviadas tras',
  rowReminders: 'Recordatorios',
  rowMails: 'Correos al terminar',
  noLimit: 'Sin límite',
  generatedLink: 'Se genera al crear la campaña',
  none: 'Ninguno',
  afterStart: '{span} después del inicio',
  reminderSummary: '{wait} después del último correo, como máximo {repeat} recordatorios',

  previewsTitle: 'Los correos que recibirán los participantes',
  previewsIntro:
    'Cada vista previa muestra el correo tal como lo recibiría un miembro de ejemplo, Alex Sample.',
  stageNames: {
    campaign_invitation: 'Invitación',
    campaign_reminder: 'Recordatorio',
    confirmation_admin: 'Confirmación a los administradores de la campaña',
    confirmation_member: 'Confirmación al participante',
    closing_notification: 'Aviso de cierre a los administradores de la campaña',
    campaign_reportdelivery: 'Entrega del informe',
  },
  previewTitle: 'Vista previa: {stage}',
  previewIntro:
    'Este es el correo tal como lo recibiría el miembro de ejemplo Alex Sample. No se envía nada.',
  from: 'De',
  to: 'Para',
  subject: 'Asunto',
  textPart: 'El texto del correo',
  openHtml: 'Abrir la versión HTML',
  backToCheck: 'Volver a sus respuestas',
  backToCampaign: 'Volver a la campaña',
};

const frFR: WizardStrings = {
  caption: 'Créer une campagne',
  continue: 'Continuer',
  chooseOne: 'Sélectionnez l’une des options',
  day: 'Jour',
  month: 'Mois',
  year: 'Année',
  time: 'Heure',
  timeHint: 'Format 24 heures, UTC, par exemple 09:00. Vide : 00:00.',
  yes: 'Oui',
  no: 'Non',
  days: 'Jours',
  weeks: 'Semaines',
  spanDay: 'jour',
  spanDays: 'jours',
  spanWeek: 'semaine',
  spanWeeks: 'semaines',
  minutes: 'Environ {minutes} minutes',
  languages: 'Langues : {languages}',

  nameQuestion: 'Quel est le nom de la campagne ?',
  nameHint: 'Les participants le voient dans leurs e-mails et sur le questionnaire.',
  variantQuestion: 'À quel questionnaire les participants répondent-ils ?',
  variantHint: 'Il ne peut plus changer une fois la campagne créée.',
  languageQuestion: 'Dans quelle langue ?',
  languageHint: 'Les participants reçoivent le questionnaire, ses e-mails et leur rapport dans cette langue.',
  startQuestion: 'Quand la campagne commence-t-elle ?',
  dateHint: 'Par exemple 27 3 2027.',
  closingQuestion: 'Comment la campagne se termine-t-elle ?',
  closingDate: 'À une date que vous choisissez',
  closingDateHint: 'La question suivante vous demande la date.',
  closingAuto: 'Quand tous les participants ont terminé',
  closingAutoHint: 'Elle se termine d’elle-même dès que le dernier participant a répondu.',
  closingOpen: 'Elle reste ouverte',
  closingOpenHint: 'Elle ne se termine jamais d’elle-même.',
  endQuestion: 'Quand la campagne se termine-t-elle ?',
  participationQuestion: 'Qui peut participer ?',
  participationMembers: 'Seulement les membres que vous ajoutez',
  participationMembersHint: 'Vous les choisissez sur la page de la campagne une fois celle-ci créée.',
  participationSignup: 'Aussi les membres qui s’inscrivent avec le lien de la campagne',
  participationSignupHint: 'Les membres de cette instance s’inscrivent en indiquant leur adresse e-mail.',
  participationRegister: 'Toute personne qui s’inscrit avec le lien de la campagne',
  participationRegisterHint: 'Une personne qui n’est pas encore membre le devient en s’inscrivant.',
  signupQuestion: 'Le lien d’inscription',
  signupIntro: 'L’inscription se fait à l’adresse {link}',
  aliasLabel: 'Fin du lien (facultatif)',
  aliasHint: 'Lettres, chiffres, _ et - uniquement. Laissez vide et un lien sera créé avec la campagne.',
  maxLabel: 'Nombre maximal de participants (facultatif)',
  maxHint:
    'Les inscriptions s’arrêtent dès que la campagne compte autant de membres. Laissez vide pour aucune limite.',
  invitationQuestion: 'Quand les invitations sont-elles envoyées ?',
  inviteNone: 'Quand vous les envoyez',
  inviteNoneHint: 'Depuis la page de la campagne, aux membres que vous choisissez.',
  inviteInstant: 'Immédiatement',
  inviteInstantHint: 'Chaque membre est invité dès qu’il est ajouté à la campagne en cours.',
  inviteFixed: 'Un délai fixe après le début',
  inviteFixedHint: 'La question suivante vous demande ce délai.',
  inviteOffsetQuestion: 'Combien de temps après le début les invitations sont-elles envoyées ?',
  amountLabel: 'Nombre',
  unitLabel: 'Jours ou semaines',
  remindersQuestion: 'Assay doit-il relancer les participants qui n’ont pas terminé ?',
  remindersHint: 'Les relances s’arrêtent quand le participant a terminé ou que la campagne se termine.',
  reminderScheduleQuestion: 'Comment les relances sont-elles envoyées ?',
  reminderWaitLabel: 'Délai avant chaque relance',
  reminderWaitHint: 'Compté à partir de l’invitation ou de la dernière relance.',
  reminderRepeatLabel: 'Nombre maximal de relances par participant',
  reminderRepeatHint: 'Un nombre entier de 1 à 100.',
  mailsQuestion: 'Quels e-mails Assay envoie-t-il quand un participant a terminé ?',
  mailsHint: 'Cochez tout ce qui s’applique, ou rien.',
  mailConfirmation: 'Une confirmation au participant',
  mailReport: 'Le rapport du participant, sous forme de lien',

  checkTitle: 'Vérifiez vos réponses avant de créer la campagne',
  checkIntro: 'Rien n’est créé ni envoyé tant que vous n’avez pas choisi « Créer la campagne ».',
  create: 'Créer la campagne',
  rowName: 'Nom',
  rowVariant: 'Questionnaire',
  rowLanguage: 'Langue',
  rowStart: 'Début',
  rowClosing: 'Fin de la campagne',
  rowEnd: 'Date de fin',
  rowParticipation: 'Qui peut participer',
  rowSignup: 'Lien d’inscription',
  rowMax: 'Nombre maximal de participants',
  rowInvitation: 'Invitations',
  rowInviteOffset: 'Invitations envoyées après',
  rowReminders: 'Relances',
  rowMails: 'E-mails à la fin',
  noLimit: 'Aucune limite',
  generatedLink: 'Créé avec la campagne',
  none: 'Aucun',
  afterStart: '{span} après le début',
  reminderSummary: '{wait} après le dernier e-mail, au plus {repeat} relances',

  previewsTitle: 'Les e-mails que recevront les participants',
  previewsIntro: 'Chaque aperçu montre l’e-mail tel qu’un membre d’exemple, Alex Sample, le recevrait.',
  stageNames: {
    campaign_invitation: 'Invitation',
    campaign_reminder: 'Relance',
    confirmation_admin: 'Confirmation aux administrateurs de la campagne',
    confirmation_member: 'Confirmation au participant',
    closing_notification: 'Avis de clôture aux administrateurs de la campagne',
    campaign_reportdelivery: 'Envoi du rapport',
  },
  previewTitle: 'Aperçu : {stage}',
  previewIntro: 'Voici l’e-mail tel que le membre d’exemple Alex Sample le recevrait. Rien n’est envoyé.',
  from: 'De',
  to: 'À',
  subject: 'Objet',
  textPart: 'Le texte de l’e-mail',
  openHtml: 'Ouvrir la version HTML',
  backToCheck: 'Revenir à vos réponses',
  backToCampaign: 'Revenir à la campagne',
};

const BY_LANGUAGE: Readonly<Record<Language, WizardStrings>> = { enUS, nlNL, esES, frFR };

export function wizardStrings(language: Language): WizardStrings {
  return BY_LANGUAGE[language];
}
