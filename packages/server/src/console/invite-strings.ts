import type { Language } from '../variants/variant.types.js';

/** The words of inviting a user by mail (console/views/invite.view.ts), in the console's four languages. */
export interface InviteStrings {
  readonly heading: string;
  /** "They get an e-mail with a link to choose their password. The link works once, for {days} days." */
  readonly intro: string;
  readonly email: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly admin: string;
  readonly adminHint: string;
  readonly language: string;
  readonly languageHint: string;
  readonly send: string;
  readonly required: string;
  readonly firstnameMissing: string;
  readonly lastnameMissing: string;
  /** "An invitation has been sent to {email}." */
  readonly sent: string;
  readonly invited: string;
  readonly expired: string;
  readonly invitation: string;
  /** "Sent {sent}, expires {expires}" */
  readonly sentExpires: string;
  /** "Sent {sent}, expired {expires}" */
  readonly sentExpired: string;
  readonly resend: string;
  /** "Send {name} a new invitation? The link of the earlier one stops working at once." */
  readonly resendBody: string;
  readonly cancel: string;
  /** "Cancel the invitation of {name}? Its link stops working and {name} is removed from the users." */
  readonly cancelBody: string;
  readonly resent: string;
  /** "The invitation of {name} has been cancelled." */
  readonly cancelled: string;
  readonly passwordTitle: string;
  /** "Welcome, {name}. Choose the password you will sign in with, with your e-mail address {email}." */
  readonly passwordIntro: string;
  readonly password: string;
  /** "At least {min} characters." */
  readonly passwordHint: string;
  readonly confirm: string;
  readonly confirmHint: string;
  readonly setPassword: string;
  /** "This link works once, until {date}." */
  readonly linkUntil: string;
  readonly passwordMissing: string;
  /** "The password must be at least {min} characters long" */
  readonly tooShort: string;
  readonly mismatch: string;
  readonly deadTitle: string;
  readonly deadBody: string;
  readonly deadHelp: string;
  readonly signIn: string;
}

const enUS: InviteStrings = {
  heading: 'Invite a user',
  intro: 'They get an e-mail with a link to choose their password. The link works once, for {days} days.',
  email: 'E-mail address',
  firstname: 'First name',
  lastname: 'Last name',
  admin: 'Make them an administrator',
  adminHint: 'Administrators manage users and see every client and key.',
  language: 'Language of the invitation',
  languageHint: 'The e-mail and the page where they choose their password are in this language.',
  send: 'Send the invitation',
  required: 'Enter their e-mail address',
  firstnameMissing: 'Enter their first name',
  lastnameMissing: 'Enter their last name',
  sent: 'An invitation has been sent to {email}.',
  invited: 'Invited',
  expired: 'Invitation expired',
  invitation: 'Invitation',
  sentExpires: 'Sent {sent}, expires {expires}',
  sentExpired: 'Sent {sent}, expired {expires}',
  resend: 'Resend the invitation',
  resendBody: 'Send {name} a new invitation? The link of the earlier one stops working at once.',
  cancel: 'Cancel the invitation',
  cancelBody: 'Cancel the invitation of {name}? Its link stops working and {name} is removed from the users.',
  resent: 'A new invitation has been sent. The link of the earlier one no longer works.',
  cancelled: 'The invitation of {name} has been cancelled.',
  passwordTitle: 'Choose your password',
  passwordIntro:
    'Welcome, {name}. Choose the password you will sign in with, with your e-mail address {email}.',
  password: 'Password',
  passwordHint: 'At least {min} characters.',
  confirm: 'Password again',
  confirmHint: 'Type it once more, to be sure.',
  setPassword: 'Set the password and sign in',
  linkUntil: 'This link works once, until {date}.',
  passwordMissing: 'Enter a password',
  tooShort: 'The password must be at least {min} characters long',
  mismatch: 'The two passwords are not the same',
  deadTitle: 'This invitation link cannot be used',
  deadBody: 'It has been used already, it has expired, or a newer invitation has replaced it.',
  deadHelp:
    'If you have chosen your password, sign in. Otherwise ask an administrator to send you a new invitation.',
  signIn: 'Sign in',
};

const nlNL: InviteStrings = {
  heading: 'Een gebruiker uitnodigen',
  intro:
    'Ze krijgen een e-mail met een link om hun wachtwoord te kiezen. De link werkt één keer, {days} dagen lang.',
  email: 'E-mailadres',
  firstname: 'Voornaam',
  lastname: 'Achternaam',
  admin: 'Maak ze beheerder',
  adminHint: 'Beheerders beheren de gebruikers en zien elke client en sleutel.',
  language: 'Taal van de uitnodiging',
  languageHint: 'De e-mail en de pagina waar ze hun wachtwoord kiezen zijn in deze taal.',
  send: 'Uitnodiging versturen',
  required: 'Vul hun e-mailadres in',
  firstnameMissing: 'Vul hun voornaam in',
  lastnameMissing: 'Vul hun achternaam in',
  sent: 'Er is een uitnodiging verstuurd naar {email}.',
  invited: 'Uitgenodigd',
  expired: 'Uitnodiging verlopen',
  invitation: 'Uitnodiging',
  sentExpires: 'Verstuurd {sent}, verloopt {expires}',
  sentExpired: 'Verstuurd {sent}, verlopen {expires}',
  resend: 'Uitnodiging opnieuw versturen',
  resendBody: '{name} een nieuwe uitnodiging sturen? De link van de vorige werkt dan meteen niet meer.',
  cancel: 'Uitnodiging intrekken',
  cancelBody:
    'De uitnodiging van {name} intrekken? De link werkt dan niet meer en {name} wordt uit de gebruikers verwijderd.',
  resent: 'Er is een nieuwe uitnodiging verstuurd. De link van de vorige werkt niet meer.',
  cancelled: 'De uitnodiging van {name} is ingetrokken.',
  passwordTitle: 'Kies je wachtwoord',
  passwordIntro: 'Welkom, {name}. Kies het wachtwoord waarmee je inlogt, met je e-mailadres {email}.',
  password: 'Wachtwoord',
  passwordHint: 'Minstens {min} tekens.',
  confirm: 'Wachtwoord nogmaals',
  confirmHint: 'Typ het nog een keer, voor de zekerheid.',
  setPassword: 'Wachtwoord instellen en inloggen',
  linkUntil: 'Deze link werkt één keer, tot {date}.',
  passwordMissing: 'Vul een wachtwoord in',
  tooShort: 'Het wachtwoord moet minstens {min} tekens lang zijn',
  mismatch: 'De twee wachtwoorden zijn niet gelijk',
  deadTitle: 'Deze uitnodigingslink kan niet worden gebruikt',
  deadBody: 'Hij is al gebruikt, hij is verlopen, of een nieuwere uitnodiging heeft hem vervangen.',
  deadHelp:
    'Heb je je wachtwoord al gekozen? Log dan in. Vraag anders een beheerder om je een nieuwe uitnodiging te sturen.',
  signIn: 'Inloggen',
};

const esES: InviteStrings = {
  heading: 'Invitar a un usuario',
  intro:
    'Recibirá un correo con un enlace para elegir su contraseña. El enlace funciona una sola vez, durante {days} días.',
  email: 'Dirección de correo',
  firstname: 'Nombre',
  lastname: 'Apellidos',
  admin: 'Hacerle administrador',
  adminHint: 'Los administradores gestionan los usuarios y ven todos los clientes y claves.',
  language: 'Idioma de la invitación',
  languageHint: 'El correo y la página donde elige su contraseña estarán en este idioma.',
  send: 'Enviar la invitación',
  required: 'Escribe su dirección de correo',
  firstnameMissing: 'Escribe su nombre',
  lastnameMissing: 'Escribe sus apellidos',
  sent: 'Se ha enviado una invitación a {email}.',
  invited: 'Invitado',
  expired: 'Invitación caducada',
  invitation: 'Invitación',
  sentExpires: 'Enviada el {sent}, caduca el {expires}',
  sentExpired: 'Enviada el {sent}, caducó el {expires}',
  resend: 'Reenviar la invitación',
  resendBody:
    '¿Enviar a {name} una nueva invitación? El enlace de la anterior deja de funcionar al instante.',
  cancel: 'Anular la invitación',
  cancelBody:
    '¿Anular la invitación de {name}? Su enlace deja de funcionar y {name} se elimina de los usuarios.',
  resent: 'Se ha enviado una nueva invitación. El enlace de la anterior ya no funciona.',
  cancelled: 'Se ha anulado la invitación de {name}.',
  passwordTitle: 'Elige tu contraseña',
  passwordIntro:
    'Te damos la bienvenida, {name}. Elige la contraseña con la que iniciarás sesión, con tu dirección {email}.',
  password: 'Contraseña',
  passwordHint: 'Al menos {min} caracteres.',
  confirm: 'Repite la contraseña',
  confirmHint: 'Escríbela otra vez, para asegurarte.',
  setPassword: 'Guardar la contraseña e iniciar sesión',
  linkUntil: 'Este enlace funciona una sola vez, hasta el {date}.',
  passwordMissing: 'Escribe una contraseña',
  tooShort: 'La contraseña debe tener al menos {min} caracteres',
  mismatch: 'Las dos contraseñas no coinciden',
  deadTitle: 'Este enlace de invitación no se puede usar',
  deadBody: 'Ya se ha usado, ha caducado o lo ha sustituido una invitación más reciente.',
  deadHelp:
    'Si ya has elegido tu contraseña, inicia sesión. Si no, pide a un administrador que te envíe una nueva invitación.',
  signIn: 'Iniciar sesión',
};

const frFR: InviteStrings = {
  heading: 'Inviter un utilisateur',
  intro:
    'La personne reçoit un e-mail avec un lien pour choisir son mot de passe. Le lien ne fonctionne qu’une fois, pendant {days}\u00a0jours.',
  email: 'Adresse e-mail',
  firstname: 'Prénom',
  lastname: 'Nom',
  admin: 'En faire un administrateur',
  adminHint: 'Les administrateurs gèrent les utilisateurs et voient tous les clients et toutes les clés.',
  language: 'Langue de l’invitation',
  languageHint: 'L’e-mail et la page où la personne choisit son mot de passe sont dans cette langue.',
  send: 'Envoyer l’invitation',
  required: 'Saisissez son adresse e-mail',
  firstnameMissing: 'Saisissez son prénom',
  lastnameMissing: 'Saisissez son nom',
  sent: 'Une invitation a été envoyée à {email}.',
  invited: 'Invité(e)',
  expired: 'Invitation expirée',
  invitation: 'Invitation',
  sentExpires: 'Envoyée le {sent}, expire le {expires}',
  sentExpired: 'Envoyée le {sent}, expirée le {expires}',
  resend: 'Renvoyer l’invitation',
  resendBody:
    'Envoyer une nouvelle invitation à {name}\u00a0? Le lien de la précédente cesse aussitôt de fonctionner.',
  cancel: 'Annuler l’invitation',
  cancelBody:
    'Annuler l’invitation de {name}\u00a0? Son lien cesse de fonctionner et {name} est retiré(e) des utilisateurs.',
  resent: 'Une nouvelle invitation a été envoyée. Le lien de la précédente ne fonctionne plus.',
  cancelled: 'L’invitation de {name} a été annulée.',
  passwordTitle: 'Choisissez votre mot de passe',
  passwordIntro:
    'Bienvenue, {name}. Choisissez le mot de passe avec lequel vous vous connecterez, avec votre adresse {email}.',
  password: 'Mot de passe',
  passwordHint: 'Au moins {min}\u00a0caractères.',
  confirm: 'Mot de passe, encore une fois',
  confirmHint: 'Saisissez-le une seconde fois, pour être sûr(e).',
  setPassword: 'Enregistrer le mot de passe et se connecter',
  linkUntil: 'Ce lien ne fonctionne qu’une fois, jusqu’au {date}.',
  passwordMissing: 'Saisissez un mot de passe',
  tooShort: 'Le mot de passe doit comporter au moins {min}\u00a0caractères',
  mismatch: 'Les deux mots de passe ne sont pas identiques',
  deadTitle: 'Ce lien d’invitation ne peut pas être utilisé',
  deadBody: 'Il a déjà servi, il a expiré, ou une invitation plus récente l’a remplacé.',
  deadHelp:
    'Si vous avez choisi votre mot de passe, connectez-vous. Sinon, demandez à un administrateur de vous envoyer une nouvelle invitation.',
  signIn: 'Se connecter',
};

const STRINGS: Readonly<Record<Language, InviteStrings>> = { enUS, nlNL, esES, frFR };

export function inviteStrings(language: Language): InviteStrings {
  return STRINGS[language];
}
