import type { Language } from '../variants/variant.types.js';

/** The words of "Your account" (console/views/account.view.ts), in the console's four languages. */
export interface AccountStrings {
  readonly title: string;
  readonly details: string;
  readonly name: string;
  readonly email: string;
  readonly role: string;
  readonly admin: string;
  readonly user: string;
  readonly passwordHeading: string;
  readonly current: string;
  readonly next: string;
  /** "At least {min} characters." */
  readonly nextHint: string;
  readonly changePassword: string;
  readonly currentWrong: string;
  readonly currentMissing: string;
  /** "Your new password must be at least {min} characters" */
  readonly tooShort: string;
  /** "Too many failed attempts: try again in {seconds} seconds" */
  readonly wait: string;
  readonly passwordChanged: string;
  readonly sessionsHeading: string;
  /** "You are signed in on {count} devices or browsers, this one included." */
  readonly sessionsCount: string;
  readonly sessionsOnlyThis: string;
  readonly signOutOthers: string;
  /** "Signed out of {count} other sessions." */
  readonly signedOutOthers: string;
  readonly languageHeading: string;
  readonly languageHint: string;
}

const enUS: AccountStrings = {
  title: 'Your account',
  details: 'Your details',
  name: 'Name',
  email: 'E-mail address',
  role: 'Role',
  admin: 'Administrator',
  user: 'User',
  passwordHeading: 'Change your password',
  current: 'Current password',
  next: 'New password',
  nextHint: 'At least {min} characters. A few unrelated words make a strong password.',
  changePassword: 'Change password',
  currentWrong: 'Your current password is not right',
  currentMissing: 'Enter your current password',
  tooShort: 'Your new password must be at least {min} characters',
  wait: 'Too many failed attempts: try again in {seconds} seconds',
  passwordChanged: 'Your password has been changed. Your other sessions have been signed out.',
  sessionsHeading: 'Where you are signed in',
  sessionsCount: 'You are signed in on {count} devices or browsers, this one included.',
  sessionsOnlyThis: 'You are signed in here only.',
  signOutOthers: 'Sign out everywhere else',
  signedOutOthers: 'Signed out of {count} other sessions.',
  languageHeading: 'Console language',
  languageHint: 'Choose the console’s language at the foot of any page.',
};

const nlNL: AccountStrings = {
  title: 'Uw account',
  details: 'Uw gegevens',
  name: 'Naam',
  email: 'E-mailadres',
  role: 'Rol',
  admin: 'Beheerder',
  user: 'Gebruiker',
  passwordHeading: 'Uw wachtwoord wijzigen',
  current: 'Huidig wachtwoord',
  next: 'Nieuw wachtwoord',
  nextHint: 'Minstens {min} tekens. Een paar losse woorden maken een sterk wachtwoord.',
  changePassword: 'Wachtwoord wijzigen',
  currentWrong: 'Uw huidige wachtwoord klopt niet',
  currentMissing: 'Vul uw huidige wachtwoord in',
  tooShort: 'Uw nieuwe wachtwoord moet minstens {min} tekens hebben',
  wait: 'Te veel mislukte pogingen: probeer het over {seconds} seconden opnieuw',
  passwordChanged: 'Uw wachtwoord is gewijzigd. Uw andere sessies zijn uitgelogd.',
  sessionsHeading: 'Waar u bent ingelogd',
  sessionsCount: 'U bent ingelogd op {count} apparaten of browsers, deze meegerekend.',
  sessionsOnlyThis: 'U bent alleen hier ingelogd.',
  signOutOthers: 'Overal elders uitloggen',
  signedOutOthers: 'Uitgelogd uit {count} andere sessies.',
  languageHeading: 'Taal van de console',
  languageHint: 'Kies de taal van de console onderaan elke pagina.',
};

const esES: AccountStrings = {
  title: 'Su cuenta',
  details: 'Sus datos',
  name: 'Nombre',
  email: 'Dirección de correo electrónico',
  role: 'Función',
  admin: 'Administrador',
  user: 'Usuario',
  passwordHeading: 'Cambiar su contraseña',
  current: 'Contraseña actual',
  next: 'Contraseña nueva',
  nextHint: 'Al menos {min} caracteres. Unas cuantas palabras sin relación forman una contraseña segura.',
  changePassword: 'Cambiar la contraseña',
  currentWrong: 'Su contraseña actual no es correcta',
  currentMissing: 'Introduzca su contraseña actual',
  tooShort: 'Su contraseña nueva debe tener al menos {min} caracteres',
  wait: 'Demasiados intentos fallidos: vuelva a intentarlo dentro de {seconds} segundos',
  passwordChanged: 'Su contraseña se ha cambiado. Se han cerrado sus demás sesiones.',
  sessionsHeading: 'Dónde tiene la sesión iniciada',
  sessionsCount: 'Tiene la sesión iniciada en {count} dispositivos o navegadores, incluido este.',
  sessionsOnlyThis: 'Solo tiene la sesión iniciada aquí.',
  signOutOthers: 'Cerrar la sesión en todos los demás sitios',
  signedOutOthers: 'Se han cerrado {count} sesiones más.',
  languageHeading: 'Idioma de la consola',
  languageHint: 'Elija el idioma de la consola al pie de cualquier página.',
};

const frFR: AccountStrings = {
  title: 'Votre compte',
  details: 'Vos informations',
  name: 'Nom',
  email: 'Adresse e-mail',
  role: 'Rôle',
  admin: 'Administrateur',
  user: 'Utilisateur',
  passwordHeading: 'Modifier votre mot de passe',
  current: 'Mot de passe actuel',
  next: 'Nouveau mot de passe',
  nextHint: 'Au moins {min} caractères. Quelques mots sans rapport font un mot de passe solide.',
  changePassword: 'Modifier le mot de passe',
  currentWrong: 'Votre mot de passe actuel est incorrect',
  currentMissing: 'Saisissez votre mot de passe actuel',
  tooShort: 'Votre nouveau mot de passe doit comporter au moins {min} caractères',
  wait: 'Trop de tentatives échouées : réessayez dans {seconds} secondes',
  passwordChanged: 'Votre mot de passe a été modifié. Vos autres sessions ont été déconnectées.',
  sessionsHeading: 'Où vous êtes connecté',
  sessionsCount: 'Vous êtes connecté sur {count} appareils ou navigateurs, celui-ci compris.',
  sessionsOnlyThis: 'Vous n’êtes connecté qu’ici.',
  signOutOthers: 'Se déconnecter partout ailleurs',
  signedOutOthers: '{count} autres sessions ont été déconnectées.',
  languageHeading: 'Langue de la console',
  languageHint: 'Choisissez la langue de la console en bas de chaque page.',
};

const BY_LANGUAGE: Readonly<Record<Language, AccountStrings>> = { enUS, nlNL, esES, frFR };

export const accountStrings = (language: Language): AccountStrings => BY_LANGUAGE[language];
