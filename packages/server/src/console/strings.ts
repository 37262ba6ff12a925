import type { Language } from '../variants/variant.types.js';

/**
 * The console's own words in its four languages: the frame (navigation, sign-in, sign-out, the
 * language choice) and the dashboard. Each area of the console keeps its words in a file of its
 * own beside its views (`*-strings.ts`), in the same shape: one object per language.
 * `{name}`-style placeholders are filled by `fill` (pages/strings.ts) and escaped with the rest.
 */
export interface ConsoleStrings {
  readonly serviceName: string;
  readonly nav: string;
  readonly navCampaigns: string;
  readonly navMembers: string;
  readonly navGroups: string;
  /** "Signed in as {name}". */
  readonly signedInAs: string;
  readonly signOut: string;
  readonly language: string;
  readonly change: string;
  readonly languageNames: Readonly<Record<Language, string>>;
  /** Appended to a time shown in UTC. */
  readonly utc: string;

  readonly signInTitle: string;
  readonly signInIntro: string;
  readonly email: string;
  readonly password: string;
  readonly signIn: string;
  readonly signInWrong: string;
  /** "Too many failed attempts: try again in {seconds} seconds." */
  readonly signInWait: string;
  readonly signInNoPassword: string;
  readonly signInHelp: string;
  readonly signedOutTitle: string;
  readonly signedOutBody: string;
  readonly signInAgain: string;
  /** The one-time sign-in link's page: "This link signs you in once, as {email}." */
  readonly signInLinkIntro: string;
  readonly linkUsedTitle: string;
  readonly linkUsedBody: string;
  /** The page of a caller at the sign-in pages' guessing limit (a one-time link's page). */
  readonly waitTitle: string;
  /** "… Try again in {seconds} seconds." */
  readonly waitBody: string;

  readonly expiredTitle: string;
  readonly expiredBody: string;
  readonly forbiddenTitle: string;
  readonly forbiddenBody: string;
  readonly notFoundTitle: string;
  readonly notFoundBody: string;
  readonly goToDashboard: string;

  readonly dashboardTitle: string;
  readonly newCampaign: string;
  readonly filterAll: string;
  readonly filterActive: string;
  readonly filterUpcoming: string;
  readonly filterEnded: string;
  /** The filters' label for screen readers. */
  readonly filterBy: string;
  readonly tableCaption: string;
  readonly colCampaign: string;
  readonly colVariant: string;
  readonly colLanguage: string;
  readonly colDates: string;
  readonly colProgress: string;
  readonly statusActive: string;
  readonly statusUpcoming: string;
  readonly statusEnded: string;
  /** "{start} to {end}" */
  readonly dateRange: string;
  /** "From {start}" (no end date). */
  readonly dateFrom: string;
  readonly countNew: string;
  readonly countInvited: string;
  readonly countStarted: string;
  readonly countCompleted: string;
  /** The progress bar's text equivalent: "{completed} of {total} completed, {started} started, {invited} invited, {new} not invited". */
  readonly progressText: string;
  readonly noMembers: string;
  /** "{count} failed mails" */
  readonly failedMails: string;
  readonly failedMailsOne: string;
  readonly noCampaignsTitle: string;
  readonly noCampaignsBody: string;
  readonly noCampaignsStep1: string;
  readonly noCampaignsStep2: string;
  readonly noCampaignsStep3: string;
  readonly createFirst: string;
  readonly noMatch: string;
  readonly previous: string;
  readonly next: string;
  /** "Page {page} of {pages}" */
  readonly pageOf: string;
  readonly pagination: string;
  readonly refreshed: string;
}

const enUS: ConsoleStrings = {
  serviceName: 'Assay console',
  nav: 'Console',
  navCampaigns: 'Campaigns',
  navMembers: 'Members',
  navGroups: 'Groups',
  signedInAs: 'Signed in as {name}',
  signOut: 'Sign out',
  language: 'Language',
  change: 'Change',
  languageNames: { enUS: 'English', nlNL: 'Nederlands', esES: 'Español', frFR: 'Français' },
  utc: 'UTC',

  signInTitle: 'Sign in to Assay',
  signInIntro: 'Sign in with the e-mail address and password of your Assay account.',
  email: 'E-mail address',
  password: 'Password',
  signIn: 'Sign in',
  signInWrong: 'The e-mail address or the password is not right',
  signInWait: 'Too many failed attempts: try again in {seconds} seconds',
  signInNoPassword: 'Enter your password',
  signInHelp:
    'No password yet? Whoever runs this Assay instance sets one with: assay users password <e-mail>',
  signedOutTitle: 'You have been signed out',
  signedOutBody: 'Your session has ended on every device and server of this instance.',
  signInAgain: 'Sign in again',
  signInLinkIntro: 'This link signs you in once, as {email}.',
  linkUsedTitle: 'This sign-in link does not work',
  linkUsedBody:
    'A sign-in link works once and for 24 hours. Sign in with your password, or ask for a new link.',
  waitTitle: 'Too many failed attempts',
  waitBody:
    'Too many links or passwords that do not work have been tried from your network address. Try again in {seconds} seconds.',

  expiredTitle: 'The form has expired',
  expiredBody:
    'For your security the form could not be sent, and nothing was changed. Go back, reload the page and try again.',
  forbiddenTitle: 'You cannot open this page',
  forbiddenBody: 'Only an administrator of this instance can use this page.',
  notFoundTitle: 'Page not found',
  notFoundBody: 'The page you asked for does not exist, or it has been deleted.',
  goToDashboard: 'Go to your campaigns',

  dashboardTitle: 'Campaigns',
  newCampaign: 'Create a campaign',
  filterAll: 'All',
  filterActive: 'Active',
  filterUpcoming: 'Upcoming',
  filterEnded: 'Ended',
  filterBy: 'Show campaigns',
  tableCaption: 'Campaigns, newest first',
  colCampaign: 'Campaign',
  colVariant: 'Questionnaire',
  colLanguage: 'Language',
  colDates: 'Dates',
  colProgress: 'Progress',
  statusActive: 'Active',
  statusUpcoming: 'Upcoming',
  statusEnded: 'Ended',
  dateRange: '{start} to {end}',
  dateFrom: 'From {start}',
  countNew: 'Not invited',
  countInvited: 'Invited',
  countStarted: 'Started',
  countCompleted: 'Completed',
  progressText: '{completed} of {total} completed, {started} started, {invited} invited, {new} not invited',
  noMembers: 'No members yet',
  failedMails: '{count} failed mails',
  failedMailsOne: '1 failed mail',
  noCampaignsTitle: 'Run your first assessment',
  noCampaignsBody:
    'There are no campaigns yet. A campaign invites people to a questionnaire and makes their reports.',
  noCampaignsStep1: 'Add the people who take part, one by one or from a CSV file.',
  noCampaignsStep2: 'Create a campaign: choose the questionnaire, its language and its dates.',
  noCampaignsStep3: 'Invite them: Assay mails each a personal link and reminds those who have not finished.',
  createFirst: 'Create your first campaign',
  noMatch: 'No campaign matches this filter.',
  previous: 'Previous',
  next: 'Next',
  pageOf: 'Page {page} of {pages}',
  pagination: 'Pages',
  refreshed: 'Figures updated {time}',
};

const nlNL: ConsoleStrings = {
  serviceName: 'Assay-console',
  nav: 'Console',
  navCampaigns: 'Campagnes',
  navMembers: 'Deelnemers',
  navGroups: 'Groepen',
  signedInAs: 'Ingelogd als {name}',
  signOut: 'Uitloggen',
  language: 'Taal',
  change: 'Wijzigen',
  languageNames: { enUS: 'English', nlNL: 'Nederlands', esES: 'Español', frFR: 'Français' },
  utc: 'UTC',

  signInTitle: 'Inloggen bij Assay',
  signInIntro: 'Log in met het e-mailadres en wachtwoord van uw Assay-account.',
  email: 'E-mailadres',
  password: 'Wachtwoord',
  signIn: 'Inloggen',
  signInWrong: 'Het e-mailadres of het wachtwoord klopt niet',
  signInWait: 'Te veel mislukte pogingen: probeer het over {seconds} seconden opnieuw',
  signInNoPassword: 'Vul uw wachtwoord in',
  signInHelp:
    'Nog geen wachtwoord? De beheerder van deze Assay-installatie stelt er een in met: assay users password <e-mail>',
  signedOutTitle: 'U bent uitgelogd',
  signedOutBody: 'Uw sessie is beëindigd op elk apparaat en elke server van deze installatie.',
  signInAgain: 'Opnieuw inloggen',
  signInLinkIntro: 'Met deze link logt u één keer in, als {email}.',
  linkUsedTitle: 'Deze inloglink werkt niet',
  linkUsedBody:
    'Een inloglink werkt één keer en 24 uur lang. Log in met uw wachtwoord, of vraag om een nieuwe link.',
  waitTitle: 'Te veel mislukte pogingen',
  waitBody:
    'Vanaf uw netwerkadres zijn te veel links of wachtwoorden geprobeerd die niet werken. Probeer het over {seconds} seconden opnieuw.',

  expiredTitle: 'Het formulier is verlopen',
  expiredBody:
    'Voor uw veiligheid kon het formulier niet worden verstuurd en is er niets gewijzigd. Ga terug, laad de pagina opnieuw en probeer het nog eens.',
  forbiddenTitle: 'U kunt deze pagina niet openen',
  forbiddenBody: 'Alleen een beheerder van deze installatie kan deze pagina gebruiken.',
  notFoundTitle: 'Pagina niet gevonden',
  notFoundBody: 'De gevraagde pagina bestaat niet, of is verwijderd.',
  goToDashboard: 'Naar uw campagnes',

  dashboardTitle: 'Campagnes',
  newCampaign: 'Campagne aanmaken',
  filterAll: 'Alle',
  filterActive: 'Actief',
  filterUpcoming: 'Gepland',
  filterEnded: 'Afgelopen',
  filterBy: 'Campagnes tonen',
  tableCaption: 'Campagnes, nieuwste eerst',
  colCampaign: 'Campagne',
  colVariant: 'Vragenlijst',
  colLanguage: 'Taal',
  colDates: 'Data',
  colProgress: 'Voortgang',
  statusActive: 'Actief',
  statusUpcoming: 'Gepland',
  statusEnded: 'Afgelopen',
  dateRange: '{start} tot {end}',
  dateFrom: 'Vanaf {start}',
  countNew: 'Niet uitgenodigd',
  countInvited: 'Uitgenodigd',
  countStarted: 'Begonnen',
  countCompleted: 'Afgerond',
  progressText:
    '{completed} van {total} afgerond, {started} begonnen, {invited} uitgenodigd, {new} niet uitgenodigd',
  noMembers: 'Nog geen deelnemers',
  failedMails: '{count} mislukte e-mails',
  failedMailsOne: '1 mislukte e-mail',
  noCampaignsTitle: 'Uw eerste assessment',
  noCampaignsBody:
    'Er zijn nog geen campagnes. Een campagne nodigt mensen uit voor een vragenlijst en maakt hun rapporten.',
  noCampaignsStep1: 'Voeg de deelnemers toe, een voor een of uit een CSV-bestand.',
  noCampaignsStep2: 'Maak een campagne aan: kies de vragenlijst, de taal en de data.',
  noCampaignsStep3:
    'Nodig ze uit: Assay mailt ieder een persoonlijke link en herinnert wie nog niet klaar is.',
  createFirst: 'Uw eerste campagne aanmaken',
  noMatch: 'Geen campagne past bij dit filter.',
  previous: 'Vorige',
  next: 'Volgende',
  pageOf: 'Pagina {page} van {pages}',
  pagination: 'Pagina’s',
  refreshed: 'Cijfers bijgewerkt om {time}',
};

const esES: ConsoleStrings = {
  serviceName: 'Consola de Assay',
  nav: 'Consola',
  navCampaigns: 'Campañas',
  navMembers: 'Miembros',
  navGroups: 'Grupos',
  signedInAs: 'Sesión iniciada como {name}',
  signOut: 'Cerrar sesión',
  language: 'Idioma',
  change: 'Cambiar',
  languageNames: { enUS: 'English', nlNL: 'Nederlands', esES: 'Español', frFR: 'Français' },
  utc: 'UTC',

  signInTitle: 'Iniciar sesión en Assay',
  signInIntro: 'Inicie sesión con la dirección de correo y la contraseña de su cuenta de Assay.',
  email: 'Dirección de correo electrónico',
  password: 'Contraseña',
  signIn: 'Iniciar sesión',
  signInWrong: 'La dirección de correo o la contraseña no son correctas',
  signInWait: 'Demasiados intentos fallidos: vuelva a intentarlo dentro de {seconds} segundos',
  signInNoPassword: 'Introduzca su contraseña',
  signInHelp:
    '¿Todavía no tiene contraseña? Quien administra esta instancia de Assay la establece con: assay users password <correo>',
  signedOutTitle: 'Ha cerrado la sesión',
  signedOutBody: 'Su sesión ha terminado en todos los dispositivos y servidores de esta instancia.',
  signInAgain: 'Volver a iniciar sesión',
  signInLinkIntro: 'Este enlace le permite iniciar sesión una vez, como {email}.',
  linkUsedTitle: 'Este enlace de acceso no funciona',
  linkUsedBody:
    'Un enlace de acceso funciona una sola vez y durante 24 horas. Inicie sesión con su contraseña o pida un enlace nuevo.',
  waitTitle: 'Demasiados intentos fallidos',
  waitBody:
    'Desde su dirección de red se han probado demasiados enlaces o contraseñas que no funcionan. Vuelva a intentarlo dentro de {seconds} segundos.',

  expiredTitle: 'El formulario ha caducado',
  expiredBody:
    'Por su seguridad no se pudo enviar el formulario y no se ha cambiado nada. Vuelva atrás, recargue la página e inténtelo de nuevo.',
  forbiddenTitle: 'No puede abrir esta página',
  forbiddenBody: 'Solo un administrador de esta instancia puede usar esta página.',
  notFoundTitle: 'Página no encontrada',
  notFoundBody: 'La página que ha pedido no existe o se ha eliminado.',
  goToDashboard: 'Ir a sus campañas',

  dashboardTitle: 'Campañas',
  newCampaign: 'Crear una campaña',
  filterAll: 'Todas',
  filterActive: 'Activas',
  filterUpcoming: 'Próximas',
  filterEnded: 'Terminadas',
  filterBy: 'Mostrar campañas',
  tableCaption: 'Campañas, las más recientes primero',
  colCampaign: 'Campaña',
  colVariant: 'Cuestionario',
  colLanguage: 'Idioma',
  colDates: 'Fechas',
  colProgress: 'Progreso',
  statusActive: 'Activa',
  statusUpcoming: 'Próxima',
  statusEnded: 'Terminada',
  dateRange: 'Del {start} al {end}',
  dateFrom: 'Desde el {start}',
  countNew: 'Sin invitar',
  countInvited: 'Invitados',
  countStarted: 'Empezados',
  countCompleted: 'Completados',
  progressText:
    '{completed} de {total} completados, {started} empezados, {invited} invitados, {new} sin invitar',
  noMembers: 'Todavía no hay miembros',
  failedMails: '{count} correos fallidos',
  failedMailsOne: '1 correo fallido',
  noCampaignsTitle: 'Realice su primera evaluación',
  noCampaignsBody:
    'Todavía no hay campañas. Una campaña invita a personas a un cuestionario y genera sus informes.',
  noCampaignsStep1: 'Añada a las personas que participan, una a una o desde un archivo CSV.',
  noCampaignsStep2: 'Cree una campaña: elija el cuestionario, su idioma y sus fechas.',
  noCampaignsStep3:
    'Invítelas: Assay envía a cada una un enlace personal y recuerda a quienes no han terminado.',
  createFirst: 'Crear su primera campaña',
  noMatch: 'Ninguna campaña coincide con este filtro.',
  previous: 'Anterior',
  next: 'Siguiente',
  pageOf: 'Página {page} de {pages}',
  pagination: 'Páginas',
  refreshed: 'Cifras actualizadas a las {time}',
};

const frFR: ConsoleStrings = {
  serviceName: 'Console Assay',
  nav: 'Console',
  navCampaigns: 'Campagnes',
  navMembers: 'Membres',
  navGroups: 'Groupes',
  signedInAs: 'Connecté en tant que {name}',
  signOut: 'Se déconnecter',
  language: 'Langue',
  change: 'Modifier',
  languageNames: { enUS: 'English', nlNL: 'Nederlands', esES: 'Español', frFR: 'Français' },
  utc: 'UTC',

  signInTitle: 'Se connecter à Assay',
  signInIntro: 'Connectez-vous avec l’adresse e-mail et le mot de passe de votre compte Assay.',
  email: 'Adresse e-mail',
  password: 'Mot de passe',
  signIn: 'Se connecter',
  signInWrong: 'L’adresse e-mail ou le mot de passe est incorrect',
  signInWait: 'Trop de tentatives échouées : réessayez dans {seconds} secondes',
  signInNoPassword: 'Saisissez votre mot de passe',
  signInHelp:
    'Pas encore de mot de passe ? La personne qui gère cette instance d’Assay en définit un avec : assay users password <e-mail>',
  signedOutTitle: 'Vous êtes déconnecté',
  signedOutBody: 'Votre session est terminée sur tous les appareils et serveurs de cette instance.',
  signInAgain: 'Se reconnecter',
  signInLinkIntro: 'Ce lien vous connecte une seule fois, en tant que {email}.',
  linkUsedTitle: 'Ce lien de connexion ne fonctionne pas',
  linkUsedBody:
    'Un lien de connexion fonctionne une seule fois, pendant 24 heures. Connectez-vous avec votre mot de passe ou demandez un nouveau lien.',
  waitTitle: 'Trop de tentatives échouées',
  waitBody:
    'Trop de liens ou de mots de passe qui ne fonctionnent pas ont été essayés depuis votre adresse réseau. Réessayez dans {seconds} secondes.',

  expiredTitle: 'Le formulaire a expiré',
  expiredBody:
    'Pour votre sécurité, le formulaire n’a pas pu être envoyé et rien n’a été modifié. Revenez en arrière, rechargez la page et réessayez.',
  forbiddenTitle: 'Vous ne pouvez pas ouvrir cette page',
  forbiddenBody: 'Seul un administrateur de cette instance peut utiliser cette page.',
  notFoundTitle: 'Page introuvable',
  notFoundBody: 'La page demandée n’existe pas ou a été supprimée.',
  goToDashboard: 'Aller à vos campagnes',

  dashboardTitle: 'Campagnes',
  newCampaign: 'Créer une campagne',
  filterAll: 'Toutes',
  filterActive: 'En cours',
  filterUpcoming: 'À venir',
  filterEnded: 'Terminées',
  filterBy: 'Afficher les campagnes',
  tableCaption: 'Campagnes, les plus récentes d’abord',
  colCampaign: 'Campagne',
  colVariant: 'Questionnaire',
  colLanguage: 'Langue',
  colDates: 'Dates',
  colProgress: 'Avancement',
  statusActive: 'En cours',
  statusUpcoming: 'À venir',
  statusEnded: 'Terminée',
  dateRange: 'Du {start} au {end}',
  dateFrom: 'À partir du {start}',
  countNew: 'Non invités',
  countInvited: 'Invités',
  countStarted: 'Commencés',
  countCompleted: 'Terminés',
  progressText: '{completed} sur {total} terminés, {started} commencés, {invited} invités, {new} non invités',
  noMembers: 'Pas encore de membres',
  failedMails: '{count} e-mails en échec',
  failedMailsOne: '1 e-mail en échec',
  noCampaignsTitle: 'Lancez votre première évaluation',
  noCampaignsBody:
    'Il n’y a pas encore de campagne. Une campagne invite des personnes à un questionnaire et produit leurs rapports.',
  noCampaignsStep1: 'Ajoutez les participants, un par un ou depuis un fichier CSV.',
  noCampaignsStep2: 'Créez une campagne : choisissez le questionnaire, sa langue et ses dates.',
  noCampaignsStep3:
    'Invitez-les : Assay envoie à chacun un lien personnel et relance ceux qui n’ont pas terminé.',
  createFirst: 'Créer votre première campagne',
  noMatch: 'Aucune campagne ne correspond à ce filtre.',
  previous: 'Précédente',
  next: 'Suivante',
  pageOf: 'Page {page} sur {pages}',
  pagination: 'Pages',
  refreshed: 'Chiffres mis à jour à {time}',
};

const BY_LANGUAGE: Readonly<Record<Language, ConsoleStrings>> = { enUS, nlNL, esES, frFR };

export function consoleStrings(language: Language): ConsoleStrings {
  return BY_LANGUAGE[language];
}

/** The console's languages, in the order the language choice lists them. */
export const CONSOLE_LANGUAGES: readonly Language[] = ['enUS', 'nlNL', 'esES', 'frFR'];
