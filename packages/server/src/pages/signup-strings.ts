import type { Language } from '../variants/variant.types.js';

/** The words of the self-registration and rater-nomination pages. */
export interface SignupStrings {
  readonly registerTitle: string;
  readonly registerIntro: string;
  readonly signupTitle: string;
  readonly signupIntro: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly email: string;
  readonly emailHint: string;
  readonly continue: string;
  readonly firstnameMissing: string;
  readonly lastnameMissing: string;
  readonly nameTooLong: string;
  /** A name holding a web or e-mail address (it would greet people as a link in mail). */
  readonly nameHasLink: string;
  /** A name holding a line break or another control character. */
  readonly nameHasControl: string;
  readonly emailMissing: string;
  /** The rater form speaks about the person nominated, not to them. */
  readonly raterFirstnameMissing: string;
  readonly raterLastnameMissing: string;
  readonly raterEmailMissing: string;
  readonly raterEmailHint: string;
  readonly emailInvalid: string;
  readonly checkEmailTitle: string;
  /** "If {email} can take part, we have sent it a link ..." */
  readonly checkEmailBody: string;
  readonly checkEmailNext: string;
  readonly fullTitle: string;
  readonly fullBody: string;
  readonly closedSignupTitle: string;
  readonly closedSignupBody: string;
  readonly tooManyTitle: string;
  readonly tooManyBody: string;
  readonly ratersTitle: string;
  readonly ratersIntro: string;
  readonly ratersNone: string;
  readonly ratersAdded: string;
  readonly raterName: string;
  readonly raterEmail: string;
  readonly raterRole: string;
  readonly addRaterTitle: string;
  readonly role: string;
  readonly roleMissing: string;
  readonly addRater: string;
  readonly raterIsYou: string;
  readonly raterPresent: string;
  /** "{role}": the role's label; "{max}": how many of that role a subject may ask. */
  readonly ratersRoleFull: string;
  /** "{max}": how many raters a subject may ask in all. */
  readonly ratersAllFull: string;
  readonly ratersCampaignFull: string;
  readonly nominateLink: string;
  readonly backToQuestionnaire: string;
}

const enUS: SignupStrings = {
  registerTitle: 'Sign up to take part',
  registerIntro: 'Enter your name and e-mail address. We will send you a personal link to the questionnaire.',
  signupTitle: 'Get your link to the questionnaire',
  signupIntro: 'Enter the e-mail address you were registered with. We will send you your personal link.',
  firstname: 'First name',
  lastname: 'Last name',
  email: 'E-mail address',
  emailHint: 'We only use it to send you your link and, if the organizer sends one, your report.',
  continue: 'Continue',
  raterFirstnameMissing: 'Enter their first name',
  raterLastnameMissing: 'Enter their last name',
  raterEmailMissing: 'Enter their e-mail address',
  raterEmailHint: 'We send them a link of their own to give you feedback.',
  firstnameMissing: 'Enter your first name',
  lastnameMissing: 'Enter your last name',
  nameTooLong: 'Use 255 characters or fewer',
  nameHasLink: 'Enter a name without a web address or an e-mail address',
  nameHasControl: 'Enter the name on one line, without special characters',
  emailMissing: 'Enter your e-mail address',
  emailInvalid: 'Enter an e-mail address in the correct format, like name@example.com',
  checkEmailTitle: 'Check your e-mail',
  checkEmailBody: 'If {email} can take part, we have sent a personal link to that address.',
  checkEmailNext:
    'Open the link in the e-mail to start. It can take a few minutes to arrive; check your spam folder too.',
  fullTitle: 'This questionnaire is full',
  fullBody:
    'The maximum number of participants has been reached. Contact the organizer if you think you should take part.',
  closedSignupTitle: 'You cannot sign up here',
  closedSignupBody:
    'This sign-up link does not work. Check that you copied the whole link, or contact the organizer.',
  tooManyTitle: 'Too many attempts',
  tooManyBody: 'Wait a minute, then try again.',
  ratersTitle: 'Who gives you feedback',
  ratersIntro:
    'Ask people who work with you to give feedback: your manager, peers and people who report to you. Each of them receives their own link by e-mail. Their answers are combined; groups with fewer than three people are left out of the report so that nobody can be recognized (your manager excepted).',
  ratersNone: 'You have not asked anyone yet.',
  ratersAdded: '{name} has been added.',
  raterName: 'Name',
  raterEmail: 'E-mail address',
  raterRole: 'Relationship',
  addRaterTitle: 'Ask someone for feedback',
  role: 'How do they work with you?',
  roleMissing: 'Select how this person works with you',
  addRater: 'Add this person',
  raterIsYou: 'Enter the address of someone else, not your own',
  raterPresent: 'This person is already taking part in this questionnaire',
  ratersRoleFull:
    'You have asked {max} people as “{role}”, the most you can ask. Choose another relationship',
  ratersAllFull: 'You have asked {max} people, the most you can ask. Contact the organizer if you need more',
  ratersCampaignFull:
    'This questionnaire has reached its maximum number of participants, so nobody else can be added. Contact the organizer',
  nominateLink: 'Choose who gives you feedback',
  backToQuestionnaire: 'Go to your questionnaire',
};

const nlNL: SignupStrings = {
  registerTitle: 'Meld je aan om mee te doen',
  registerIntro: 'Vul je naam en e-mailadres in. We sturen je een persoonlijke link naar de vragenlijst.',
  signupTitle: 'Vraag je link naar de vragenlijst aan',
  signupIntro: 'Vul het e-mailadres in waarmee je bent aangemeld. We sturen je dan je persoonlijke link.',
  firstname: 'Voornaam',
  lastname: 'Achternaam',
  email: 'E-mailadres',
  emailHint:
    'We gebruiken dit adres alleen om je je link te sturen. En je rapport, als de organisator dat laat versturen.',
  continue: 'Doorgaan',
  raterFirstnameMissing: 'Vul de voornaam in',
  raterLastnameMissing: 'Vul de achternaam in',
  raterEmailMissing: 'Vul het e-mailadres in',
  raterEmailHint: 'We sturen deze persoon een eigen link om je feedback te geven.',
  firstnameMissing: 'Vul je voornaam in',
  lastnameMissing: 'Vul je achternaam in',
  nameTooLong: 'Gebruik maximaal 255 tekens',
  nameHasLink: 'Vul een naam in zonder webadres of e-mailadres',
  nameHasControl: 'Vul de naam in op één regel, zonder speciale tekens',
  emailMissing: 'Vul je e-mailadres in',
  emailInvalid: 'Vul een e-mailadres in met de juiste vorm, zoals naam@example.com',
  checkEmailTitle: 'Kijk in je mailbox',
  checkEmailBody: 'Als {email} mag meedoen, hebben we een persoonlijke link naar dat adres gestuurd.',
  checkEmailNext:
    'Open de link in de e-mail om te beginnen. Het kan een paar minuten duren voordat de e-mail binnen is. Kijk ook in je spammap.',
  fullTitle: 'Deze vragenlijst is vol',
  fullBody:
    'Het maximale aantal deelnemers is bereikt. Denk je dat je mee zou moeten doen? Neem dan contact op met de organisator.',
  closedSignupTitle: 'Je kunt je hier niet aanmelden',
  closedSignupBody:
    'Deze aanmeldlink werkt niet. Controleer of je de hele link hebt gekopieerd, of neem contact op met de organisator.',
  tooManyTitle: 'Te veel pogingen',
  tooManyBody: 'Wacht een minuut en probeer het dan opnieuw.',
  ratersTitle: 'Wie geeft je feedback?',
  ratersIntro:
    'Vraag mensen met wie je samenwerkt om je feedback te geven: je leidinggevende, collega’s en medewerkers. Ieder van hen krijgt een eigen link per e-mail. Hun antwoorden worden samengevoegd. Groepen van minder dan drie mensen laten we weg uit het rapport, zodat niemand herkenbaar is. Dat geldt niet voor je leidinggevende.',
  ratersNone: 'Je hebt nog niemand gevraagd.',
  ratersAdded: '{name} is toegevoegd.',
  raterName: 'Naam',
  raterEmail: 'E-mailadres',
  raterRole: 'Relatie',
  addRaterTitle: 'Vraag iemand om feedback',
  role: 'Hoe werk je met deze persoon samen?',
  roleMissing: 'Kies hoe je met deze persoon samenwerkt',
  addRater: 'Voeg deze persoon toe',
  raterIsYou: 'Vul het adres van iemand anders in, niet je eigen adres',
  raterPresent: 'Deze persoon doet al mee aan deze vragenlijst',
  ratersRoleFull: 'Je hebt al {max} mensen gevraagd als ‘{role}’, het maximum. Kies een andere relatie',
  ratersAllFull:
    'Je hebt {max} mensen gevraagd, het maximum. Neem contact op met de organisator als je er meer nodig hebt',
  ratersCampaignFull:
    'Deze vragenlijst heeft het maximale aantal deelnemers bereikt: er kan niemand meer bij. Neem contact op met de organisator',
  nominateLink: 'Kies wie je feedback geeft',
  backToQuestionnaire: 'Ga naar je vragenlijst',
};

const esES: SignupStrings = {
  registerTitle: 'Inscríbete para participar',
  registerIntro:
    'Escribe tu nombre y tu dirección de correo electrónico. Te enviaremos un enlace personal al cuestionario.',
  signupTitle: 'Pide tu enlace al cuestionario',
  signupIntro:
    'Escribe la dirección de correo electrónico con la que te inscribieron. Te enviaremos tu enlace personal.',
  firstname: 'Nombre',
  lastname: 'Apellidos',
  email: 'Dirección de correo electrónico',
  emailHint:
    'Solo la usamos para enviarte tu enlace y, si la persona que organiza el cuestionario lo envía, tu informe.',
  continue: 'Continuar',
  raterFirstnameMissing: 'Escribe su nombre',
  raterLastnameMissing: 'Escribe sus apellidos',
  raterEmailMissing: 'Escribe su dirección de correo electrónico',
  raterEmailHint: 'Le enviaremos su propio enlace para darte feedback.',
  firstnameMissing: 'Escribe tu nombre',
  lastnameMissing: 'Escribe tus apellidos',
  nameTooLong: 'Usa 255 caracteres como máximo',
  nameHasLink: 'Escribe un nombre sin direcciones web ni de correo electrónico',
  nameHasControl: 'Escribe el nombre en una sola línea, sin caracteres especiales',
  emailMissing: 'Escribe tu dirección de correo electrónico',
  emailInvalid:
    'Escribe una dirección de correo electrónico con el formato correcto, como nombre@example.com',
  checkEmailTitle: 'Revisa tu correo',
  checkEmailBody: 'Si {email} puede participar, hemos enviado un enlace personal a esa dirección.',
  checkEmailNext:
    'Abre el enlace del correo para empezar. Puede tardar unos minutos en llegar. Mira también en la carpeta de spam.',
  fullTitle: 'Este cuestionario está completo',
  fullBody:
    'Se ha alcanzado el número máximo de participantes. Si crees que deberías participar, ponte en contacto con la persona que organiza el cuestionario.',
  closedSignupTitle: 'No puedes inscribirte aquí',
  closedSignupBody:
    'Este enlace de inscripción no funciona. Comprueba que has copiado el enlace completo o ponte en contacto con la persona que organiza el cuestionario.',
  tooManyTitle: 'Demasiados intentos',
  tooManyBody: 'Espera un minuto y vuelve a intentarlo.',
  ratersTitle: 'Quién te da feedback',
  ratersIntro:
    'Pide feedback a personas que trabajan contigo: tu responsable, tus pares y tus colaboradores directos. Cada una recibe su propio enlace por correo. Sus respuestas se combinan. Los grupos de menos de tres personas no aparecen en el informe, para que nadie pueda ser identificado (salvo tu responsable).',
  ratersNone: 'Todavía no has pedido feedback a nadie.',
  ratersAdded: 'Se ha añadido a {name}.',
  raterName: 'Nombre',
  raterEmail: 'Correo electrónico',
  raterRole: 'Relación',
  addRaterTitle: 'Pide feedback a alguien',
  role: '¿Qué relación de trabajo tienes con esta persona?',
  roleMissing: 'Elige qué relación de trabajo tienes con esta persona',
  addRater: 'Añadir a esta persona',
  raterIsYou: 'Escribe la dirección de otra persona, no la tuya',
  raterPresent: 'Esta persona ya participa en este cuestionario',
  ratersRoleFull: 'Ya has pedido feedback a {max} personas como «{role}», el máximo. Elige otra relación',
  ratersAllFull:
    'Has pedido feedback a {max} personas, el máximo. Si necesitas más, ponte en contacto con la persona que organiza el cuestionario',
  ratersCampaignFull:
    'Este cuestionario ha alcanzado el número máximo de participantes y no se puede añadir a nadie más. Ponte en contacto con la persona que organiza el cuestionario',
  nominateLink: 'Elegir quién te da feedback',
  backToQuestionnaire: 'Ir a tu cuestionario',
};

// French typography puts a no-break space before ':' (\u00a0) and a narrow one before '?' (\u202f).
const frFR: SignupStrings = {
  registerTitle: 'Inscrivez-vous pour participer',
  registerIntro:
    'Saisissez votre nom et votre adresse e-mail. Nous vous enverrons un lien personnel vers le questionnaire.',
  signupTitle: 'Recevez votre lien vers le questionnaire',
  signupIntro:
    'Saisissez l’adresse e-mail utilisée pour votre inscription. Nous vous enverrons votre lien personnel.',
  firstname: 'Prénom',
  lastname: 'Nom',
  email: 'Adresse e-mail',
  emailHint:
    'Nous l’utilisons uniquement pour vous envoyer votre lien et, si l’organisateur l’envoie, votre rapport.',
  continue: 'Continuer',
  raterFirstnameMissing: 'Saisissez son prénom',
  raterLastnameMissing: 'Saisissez son nom',
  raterEmailMissing: 'Saisissez son adresse e-mail',
  raterEmailHint: 'Nous lui enverrons son propre lien pour vous donner un feedback.',
  firstnameMissing: 'Saisissez votre prénom',
  lastnameMissing: 'Saisissez votre nom',
  nameTooLong: 'Utilisez 255 caractères au maximum',
  nameHasLink: 'Saisissez un nom sans adresse web ni adresse e-mail',
  nameHasControl: 'Saisissez le nom sur une seule ligne, sans caractères spéciaux',
  emailMissing: 'Saisissez votre adresse e-mail',
  emailInvalid: 'Saisissez une adresse e-mail au bon format, par exemple nom@example.com',
  checkEmailTitle: 'Consultez votre messagerie',
  checkEmailBody: 'Si {email} peut participer, nous avons envoyé un lien personnel à cette adresse.',
  checkEmailNext:
    'Ouvrez le lien dans l’e-mail pour commencer. L’e-mail peut mettre quelques minutes à arriver. Pensez aussi à regarder dans vos courriers indésirables.',
  fullTitle: 'Ce questionnaire est complet',
  fullBody:
    'Le nombre maximal de participants est atteint. Si vous pensez que vous devriez participer, contactez l’organisateur.',
  closedSignupTitle: 'Vous ne pouvez pas vous inscrire ici',
  closedSignupBody:
    'Ce lien d’inscription ne fonctionne pas. Vérifiez que vous avez copié le lien complet, ou contactez l’organisateur.',
  tooManyTitle: 'Trop de tentatives',
  tooManyBody: 'Patientez une minute, puis réessayez.',
  ratersTitle: 'Qui vous donne du feedback',
  ratersIntro:
    'Demandez à des personnes qui travaillent avec vous de vous donner du feedback\u00a0: votre responsable, vos pairs et vos collaborateurs directs. Chacune reçoit son propre lien par e-mail. Leurs réponses sont regroupées. Les groupes de moins de trois personnes n’apparaissent pas dans le rapport, pour que personne ne puisse être reconnu (sauf votre responsable).',
  ratersNone: 'Vous n’avez encore sollicité personne.',
  ratersAdded: 'Nous avons ajouté {name}.',
  raterName: 'Nom',
  raterEmail: 'Adresse e-mail',
  raterRole: 'Relation',
  addRaterTitle: 'Demander du feedback à une personne',
  role: 'Comment travaillez-vous avec cette personne\u202f?',
  roleMissing: 'Choisissez comment vous travaillez avec cette personne',
  addRater: 'Ajouter cette personne',
  raterIsYou: 'Saisissez l’adresse d’une autre personne, pas la vôtre',
  raterPresent: 'Cette personne participe déjà à ce questionnaire',
  ratersRoleFull:
    'Vous avez déjà sollicité {max}\u00a0personnes comme «\u00a0{role}\u00a0», le maximum. Choisissez une autre relation',
  ratersAllFull:
    'Vous avez sollicité {max}\u00a0personnes, le maximum. Si vous avez besoin de plus, contactez l’organisateur',
  ratersCampaignFull:
    'Ce questionnaire a atteint le nombre maximal de participants\u00a0: personne d’autre ne peut être ajouté. Contactez l’organisateur',
  nominateLink: 'Choisir qui vous donne du feedback',
  backToQuestionnaire: 'Accéder à votre questionnaire',
};

const STRINGS: Readonly<Record<Language, SignupStrings>> = {
  enUS,
  nlNL,
  esES,
  frFR,
};

export function signupStringsFor(language: Language): SignupStrings {
  return STRINGS[language];
}
