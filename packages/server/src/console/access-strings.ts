import type { Scope } from '@assay/schema';
import type { Language } from '../variants/variant.types.js';

/** The words of the access pages (console/views/access.view.ts), in the console's four languages. */
export interface AccessStrings {
  readonly nav: string;
  readonly clientsTitle: string;
  readonly clientsIntro: string;
  readonly clientsCaption: string;
  /** The tag of a client that registered itself (RFC 7591), and what that means. */
  readonly registered: string;
  readonly registeredHint: string;
  /** The owner of a registered client no one has allowed yet (an admin holds it meanwhile). */
  readonly unclaimed: string;
  readonly noClients: string;
  readonly newClient: string;
  readonly name: string;
  readonly nameHint: string;
  readonly scopes: string;
  readonly scopesHint: string;
  readonly scopeWords: Readonly<Record<Scope, string>>;
  readonly redirectUris: string;
  readonly redirectUrisHint: string;
  readonly owner: string;
  readonly created: string;
  readonly clientId: string;
  readonly secret: string;
  readonly createClient: string;
  readonly nameMissing: string;
  readonly scopesMissing: string;
  readonly secretTitle: string;
  /** GOV.UK Notify's words. */
  readonly secretWarning: string;
  readonly backToClients: string;
  readonly rotate: string;
  readonly rotateHint: string;
  readonly delete: string;
  readonly deleteTitle: string;
  /** "Delete {name}? Its secret and every token made with it stop working at once." */
  readonly deleteBody: string;
  readonly cancel: string;
  /** "The client {name} has been deleted." */
  readonly clientDeleted: string;
  readonly cliHint: string;
  readonly keysTitle: string;
  readonly keysIntro: string;
  readonly keysCaption: string;
  readonly noKeys: string;
  readonly newKey: string;
  readonly createKey: string;
  readonly keyTitle: string;
  readonly key: string;
  readonly status: string;
  readonly active: string;
  /** "Revoked {date}" */
  readonly revokedOn: string;
  readonly revoke: string;
  readonly revokeTitle: string;
  /** "Revoke {name}? Calls with it are refused from now on." */
  readonly revokeBody: string;
  /** "The API key {name} has been revoked." */
  readonly keyRevoked: string;
  readonly keysCliHint: string;
  readonly none: string;
  readonly actions: string;
  readonly usersTitle: string;
  readonly usersCaption: string;
  readonly email: string;
  readonly role: string;
  readonly admin: string;
  readonly user: string;
  readonly deactivated: string;
  readonly makeAdmin: string;
  readonly removeAdmin: string;
  readonly deactivate: string;
  readonly reactivate: string;
  /** "{name} becomes an administrator: they can manage users and see every client and key." */
  readonly makeAdminBody: string;
  /** "{name} stops being an administrator." */
  readonly removeAdminBody: string;
  /** "Deactivate {name}? They are signed out at once, cannot sign in, and their clients' tokens and API keys are refused." */
  readonly deactivateBody: string;
  /** "Reactivate {name}? They can sign in again; tokens issued before stay refused." */
  readonly reactivateBody: string;
  readonly confirm: string;
  readonly userChanged: string;
  readonly usersCliHint: string;
}

const enUS: AccessStrings = {
  nav: 'Access',
  clientsTitle: 'OAuth clients',
  clientsIntro:
    'A client is how a program signs in to the API. Its secret gets tokens at /api/v1/auth/access_token.',
  clientsCaption: 'Clients',
  registered: 'registered',
  unclaimed: 'No one yet: no one has allowed it',
  registeredHint:
    'This application registered itself (for example an MCP client that knows only this address): its name is its own and was not checked. It has no secret; it signs in with a person who allows it. Delete it to stop it.',
  noClients: 'There are no clients yet.',
  newClient: 'Create a client',
  name: 'Name',
  nameHint: 'So you can tell it apart later, for example the program that uses it.',
  scopes: 'What it may do',
  scopesHint: 'Select all that apply.',
  scopeWords: {
    members: 'Read and change members',
    groups: 'Read and change groups',
    campaigns: 'Read and change campaigns, invite and remind',
    reports: 'Read results and reports',
    settings: 'Read and change settings',
    samples: 'Read and change sample data',
    webhooks: 'Read and change webhook subscriptions',
    audit: 'Read the audit log',
  },
  redirectUris: 'Return addresses (redirect URIs)',
  redirectUrisHint:
    'Only for programs that sign people in. One absolute address a line; leave empty otherwise.',
  owner: 'Owner',
  created: 'Created',
  clientId: 'Client ID',
  secret: 'Secret',
  createClient: 'Create client',
  nameMissing: 'Enter a name',
  scopesMissing: 'Select at least one thing it may do',
  secretTitle: 'Your client’s secret',
  secretWarning:
    'Copy your secret to somewhere safe. You will not be able to see it again once you leave this page.',
  backToClients: 'Back to clients',
  rotate: 'Make a new secret',
  rotateHint: 'The old secret and every token made with it stop working at once.',
  delete: 'Delete',
  deleteTitle: 'Delete this client',
  deleteBody: 'Delete {name}? Its secret and every token made with it stop working at once.',
  cancel: 'Cancel',
  clientDeleted: 'The client {name} has been deleted.',
  cliHint: 'The command line does the same: assay clients list, create, update and delete.',
  keysTitle: 'API keys',
  keysIntro: 'An API key reads the API with a single header. Keys can only read, never change anything.',
  keysCaption: 'API keys',
  noKeys: 'There are no API keys yet.',
  newKey: 'Create an API key',
  createKey: 'Create key',
  keyTitle: 'Your API key',
  key: 'Key',
  status: 'Status',
  active: 'Active',
  revokedOn: 'Revoked {date}',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this API key',
  revokeBody: 'Revoke {name}? Calls with it are refused from now on.',
  keyRevoked: 'The API key {name} has been revoked.',
  keysCliHint: 'The command line does the same: assay apikeys create, list and revoke.',
  none: 'None',
  actions: 'Actions',
  usersTitle: 'Users',
  usersCaption: 'Platform users',
  email: 'E-mail address',
  role: 'Role',
  admin: 'Administrator',
  user: 'User',
  deactivated: 'Deactivated',
  makeAdmin: 'Make administrator',
  removeAdmin: 'Remove administrator role',
  deactivate: 'Deactivate',
  reactivate: 'Reactivate',
  makeAdminBody: '{name} becomes an administrator: they can manage users and see every client and key.',
  removeAdminBody: '{name} stops being an administrator.',
  deactivateBody:
    'Deactivate {name}? They are signed out at once, cannot sign in, and their clients’ tokens and API keys are refused.',
  reactivateBody: 'Reactivate {name}? They can sign in again; tokens issued before stay refused.',
  confirm: 'Confirm',
  userChanged: 'The user has been changed.',
  usersCliHint:
    'The command line does the same: assay users list, create, update, deactivate and reactivate.',
};

const nlNL: AccessStrings = {
  nav: 'Toegang',
  clientsTitle: 'OAuth-clients',
  clientsIntro:
    'Met een client meldt een programma zich aan bij de API. Met het geheim verkrijgt u tokens via /api/v1/auth/access_token.',
  clientsCaption: 'Clients',
  registered: 'zelf aangemeld',
  unclaimed: 'Nog niemand: niemand heeft haar toegestaan',
  registeredHint:
    'Deze applicatie heeft zichzelf aangemeld (bijvoorbeeld een MCP-client die alleen dit adres kent): de naam heeft ze zelf gekozen en is niet gecontroleerd. Ze heeft geen geheim; ze krijgt toegang via een persoon die haar toestaat. Verwijder haar om haar te stoppen.',
  noClients: 'Er zijn nog geen clients.',
  newClient: 'Een client aanmaken',
  name: 'Naam',
  nameHint: 'Zodat u hem later herkent, bijvoorbeeld het programma dat hem gebruikt.',
  scopes: 'Wat hij mag doen',
  scopesHint: 'Selecteer alles wat van toepassing is.',
  scopeWords: {
    members: 'Leden inzien en wijzigen',
    groups: 'Groepen inzien en wijzigen',
    campaigns: 'Campagnes inzien en wijzigen, uitnodigen en herinneren',
    reports: 'Resultaten en rapporten inzien',
    settings: 'Instellingen inzien en wijzigen',
    samples: 'Voorbeeldgegevens inzien en wijzigen',
    webhooks: 'Webhook-abonnementen inzien en wijzigen',
    audit: 'Het auditlogboek inzien',
  },
  redirectUris: 'Terugkeeradressen (redirect-URI’s)',
  redirectUrisHint:
    'Alleen voor programma’s die mensen aanmelden. Eén absoluut adres per regel; laat het anders leeg.',
  owner: 'Eigenaar',
  created: 'Aangemaakt',
  clientId: 'Client-ID',
  secret: 'Geheim',
  createClient: 'Client aanmaken',
  nameMissing: 'Vul een naam in',
  scopesMissing: 'Selecteer ten minste één ding dat hij mag doen',
  secretTitle: 'Het geheim van uw client',
  secretWarning:
    'Kopieer uw geheim naar een veilige plek. U kunt het niet meer inzien zodra u deze pagina verlaat.',
  backToClients: 'Terug naar clients',
  rotate: 'Een nieuw geheim maken',
  rotateHint: 'Het oude geheim en alle tokens die ermee zijn gemaakt, werken direct niet meer.',
  delete: 'Verwijderen',
  deleteTitle: 'Deze client verwijderen',
  deleteBody:
    '{name} verwijderen? Het geheim en alle tokens die ermee zijn gemaakt, werken direct niet meer.',
  cancel: 'Annuleren',
  clientDeleted: 'De client {name} is verwijderd.',
  cliHint: 'De opdrachtregel kan hetzelfde: assay clients list, create, update en delete.',
  keysTitle: 'API-sleutels',
  keysIntro:
    'Met een API-sleutel leest u de API met één header. Sleutels kunnen alleen lezen, nooit iets wijzigen.',
  keysCaption: 'API-sleutels',
  noKeys: 'Er zijn nog geen API-sleutels.',
  newKey: 'Een API-sleutel aanmaken',
  createKey: 'Sleutel aanmaken',
  keyTitle: 'Uw API-sleutel',
  key: 'Sleutel',
  status: 'Status',
  active: 'Actief',
  revokedOn: 'Ingetrokken op {date}',
  revoke: 'Intrekken',
  revokeTitle: 'Deze API-sleutel intrekken',
  revokeBody: '{name} intrekken? Aanroepen met deze sleutel worden vanaf nu geweigerd.',
  keyRevoked: 'De API-sleutel {name} is ingetrokken.',
  keysCliHint: 'De opdrachtregel kan hetzelfde: assay apikeys create, list en revoke.',
  none: 'Geen',
  actions: 'Acties',
  usersTitle: 'Gebruikers',
  usersCaption: 'Platformgebruikers',
  email: 'E-mailadres',
  role: 'Rol',
  admin: 'Beheerder',
  user: 'Gebruiker',
  deactivated: 'Gedeactiveerd',
  makeAdmin: 'Beheerder maken',
  removeAdmin: 'Beheerdersrol intrekken',
  deactivate: 'Deactiveren',
  reactivate: 'Opnieuw activeren',
  makeAdminBody:
    '{name} wordt beheerder: hij of zij kan gebruikers beheren en ziet alle clients en sleutels.',
  removeAdminBody: '{name} is niet langer beheerder.',
  deactivateBody:
    '{name} deactiveren? Hij of zij wordt direct uitgelogd, kan niet meer inloggen, en de tokens en API-sleutels van zijn of haar clients worden geweigerd.',
  reactivateBody: '{name} opnieuw activeren? Inloggen kan weer; eerder uitgegeven tokens blijven geweigerd.',
  confirm: 'Bevestigen',
  userChanged: 'De gebruiker is gewijzigd.',
  usersCliHint: 'De opdrachtregel kan hetzelfde: assay users list, create, update, deactivate en reactivate.',
};

const esES: AccessStrings = {
  nav: 'Acceso',
  clientsTitle: 'Clientes OAuth',
  clientsIntro:
    'Un cliente es la forma en que un programa inicia sesión en la API. Con su secreto obtiene tokens en /api/v1/auth/access_token.',
  clientsCaption: 'Clientes',
  registered: 'autorregistrado',
  unclaimed: 'Nadie aún: nadie la ha autorizado',
  registeredHint:
    'Esta aplicación se registró por sí misma (por ejemplo, un cliente MCP que solo conoce esta dirección): su nombre lo eligió ella y no se ha comprobado. No tiene secreto; accede a través de una persona que la autoriza. Elimínela para detenerla.',
  noClients: 'Todavía no hay clientes.',
  newClient: 'Crear un cliente',
  name: 'Nombre',
  nameHint: 'Para que pueda reconocerlo más adelante, por ejemplo el programa que lo utiliza.',
  scopes: 'Qué puede hacer',
  scopesHint: 'Seleccione todas las opciones que correspondan.',
  scopeWords: {
    members: 'Consultar y modificar miembros',
    groups: 'Consultar y modificar grupos',
    campaigns: 'Consultar y modificar campañas, invitar y enviar recordatorios',
    reports: 'Consultar resultados e informes',
    settings: 'Consultar y modificar la configuración',
    samples: 'Consultar y modificar datos de ejemplo',
    webhooks: 'Consultar y modificar las suscripciones de webhooks',
    audit: 'Consultar el registro de auditoría',
  },
  redirectUris: 'Direcciones de retorno (URI de redirección)',
  redirectUrisHint:
    'Solo para programas que inician la sesión de personas. Una dirección absoluta por línea; de lo contrario, déjelo vacío.',
  owner: 'Propietario',
  created: 'Creado',
  clientId: 'ID de cliente',
  secret: 'Secreto',
  createClient: 'Crear cliente',
  nameMissing: 'Introduzca un nombre',
  scopesMissing: 'Seleccione al menos una cosa que pueda hacer',
  secretTitle: 'El secreto de su cliente',
  secretWarning:
    'Copie su secreto en un lugar seguro. No podrá volver a verlo una vez que salga de esta página.',
  backToClients: 'Volver a los clientes',
  rotate: 'Crear un secreto nuevo',
  rotateHint: 'El secreto anterior y todos los tokens creados con él dejan de funcionar de inmediato.',
  delete: 'Eliminar',
  deleteTitle: 'Eliminar este cliente',
  deleteBody:
    '¿Eliminar {name}? Su secreto y todos los tokens creados con él dejan de funcionar de inmediato.',
  cancel: 'Cancelar',
  clientDeleted: 'Se ha eliminado el cliente {name}.',
  cliHint: 'La línea de comandos hace lo mismo: assay clients list, create, update y delete.',
  keysTitle: 'Claves de API',
  keysIntro:
    'Una clave de API consulta la API con una sola cabecera. Las claves solo pueden leer, nunca modificar nada.',
  keysCaption: 'Claves de API',
  noKeys: 'Todavía no hay claves de API.',
  newKey: 'Crear una clave de API',
  createKey: 'Crear clave',
  keyTitle: 'Su clave de API',
  key: 'Clave',
  status: 'Estado',
  active: 'Activa',
  revokedOn: 'Revocada el {date}',
  revoke: 'Revocar',
  revokeTitle: 'Revocar esta clave de API',
  revokeBody: '¿Revocar {name}? Las llamadas con ella se rechazan a partir de ahora.',
  keyRevoked: 'Se ha revocado la clave de API {name}.',
  keysCliHint: 'La línea de comandos hace lo mismo: assay apikeys create, list y revoke.',
  none: 'Ninguno',
  actions: 'Acciones',
  usersTitle: 'Usuarios',
  usersCaption: 'Usuarios de la plataforma',
  email: 'Correo electrónico',
  role: 'Función',
  admin: 'Administrador',
  user: 'Usuario',
  deactivated: 'Desactivado',
  makeAdmin: 'Hacer administrador',
  removeAdmin: 'Retirar la función de administrador',
  deactivate: 'Desactivar',
  reactivate: 'Reactivar',
  makeAdminBody:
    '{name} pasa a ser administrador: puede gestionar usuarios y ver todos los clientes y claves.',
  removeAdminBody: '{name} deja de ser administrador.',
  deactivateBody:
    '¿Desactivar a {name}? Su sesión se cierra de inmediato, no podrá iniciar sesión y se rechazarán los tokens de sus clientes y sus claves de API.',
  reactivateBody:
    '¿Reactivar a {name}? Podrá volver a iniciar sesión; los tokens emitidos antes siguen rechazados.',
  confirm: 'Confirmar',
  userChanged: 'Se ha modificado el usuario.',
  usersCliHint:
    'La línea de comandos hace lo mismo: assay users list, create, update, deactivate y reactivate.',
};

const frFR: AccessStrings = {
  nav: 'Accès',
  clientsTitle: 'Clients OAuth',
  clientsIntro:
    'Un client permet à un programme de se connecter à l’API. Son secret obtient des jetons à l’adresse /api/v1/auth/access_token.',
  clientsCaption: 'Clients',
  registered: 'auto-enregistré',
  unclaimed: 'Personne encore : personne ne l’a autorisée',
  registeredHint:
    'Cette application s’est enregistrée elle-même (par exemple un client MCP qui ne connaît que cette adresse) : son nom est le sien et n’a pas été vérifié. Elle n’a pas de secret ; elle accède par une personne qui l’autorise. Supprimez-la pour l’arrêter.',
  noClients: 'Il n’y a pas encore de client.',
  newClient: 'Créer un client',
  name: 'Nom',
  nameHint: 'Pour le reconnaître plus tard, par exemple le programme qui l’utilise.',
  scopes: 'Ce qu’il peut faire',
  scopesHint: 'Sélectionnez toutes les réponses applicables.',
  scopeWords: {
    members: 'Consulter et modifier les membres',
    groups: 'Consulter et modifier les groupes',
    campaigns: 'Consulter et modifier les campagnes, inviter et relancer',
    reports: 'Consulter les résultats et les rapports',
    settings: 'Consulter et modifier les paramètres',
    samples: 'Consulter et modifier les données d’exemple',
    webhooks: 'Consulter et modifier les abonnements webhook',
    audit: 'Consulter le journal d’audit',
  },
  redirectUris: 'Adresses de retour (URI de redirection)',
  redirectUrisHint:
    'Uniquement pour les programmes qui connectent des personnes. Une adresse absolue par ligne ; sinon, laissez vide.',
  owner: 'Propriétaire',
  created: 'Créé',
  clientId: 'Identifiant du client',
  secret: 'Secret',
  createClient: 'Créer le client',
  nameMissing: 'Saisissez un nom',
  scopesMissing: 'Sélectionnez au moins une chose qu’il peut faire',
  secretTitle: 'Le secret de votre client',
  secretWarning:
    'Copiez votre secret dans un endroit sûr. Vous ne pourrez plus le voir une fois que vous aurez quitté cette page.',
  backToClients: 'Retour aux clients',
  rotate: 'Créer un nouveau secret',
  rotateHint: 'L’ancien secret et tous les jetons obtenus avec lui cessent aussitôt de fonctionner.',
  delete: 'Supprimer',
  deleteTitle: 'Supprimer ce client',
  deleteBody:
    'Supprimer {name} ? Son secret et tous les jetons obtenus avec lui cessent aussitôt de fonctionner.',
  cancel: 'Annuler',
  clientDeleted: 'Le client {name} a été supprimé.',
  cliHint: 'La ligne de commande fait de même : assay clients list, create, update et delete.',
  keysTitle: 'Clés d’API',
  keysIntro:
    'Une clé d’API consulte l’API avec un seul en-tête. Les clés ne peuvent que lire, jamais rien modifier.',
  keysCaption: 'Clés d’API',
  noKeys: 'Il n’y a pas encore de clé d’API.',
  newKey: 'Créer une clé d’API',
  createKey: 'Créer la clé',
  keyTitle: 'Votre clé d’API',
  key: 'Clé',
  status: 'État',
  active: 'Active',
  revokedOn: 'Révoquée le {date}',
  revoke: 'Révoquer',
  revokeTitle: 'Révoquer cette clé d’API',
  revokeBody: 'Révoquer {name} ? Les appels avec cette clé sont refusés dès maintenant.',
  keyRevoked: 'La clé d’API {name} a été révoquée.',
  keysCliHint: 'La ligne de commande fait de même : assay apikeys create, list et revoke.',
  none: 'Aucune',
  actions: 'Actions',
  usersTitle: 'Utilisateurs',
  usersCaption: 'Utilisateurs de la plateforme',
  email: 'Adresse e-mail',
  role: 'Rôle',
  admin: 'Administrateur',
  user: 'Utilisateur',
  deactivated: 'Désactivé',
  makeAdmin: 'Nommer administrateur',
  removeAdmin: 'Retirer le rôle d’administrateur',
  deactivate: 'Désactiver',
  reactivate: 'Réactiver',
  makeAdminBody:
    '{name} devient administrateur : il ou elle peut gérer les utilisateurs et voit tous les clients et toutes les clés.',
  removeAdminBody: '{name} n’est plus administrateur.',
  deactivateBody:
    'Désactiver {name} ? Sa session est fermée aussitôt, la connexion lui est refusée, et les jetons de ses clients ainsi que ses clés d’API sont refusés.',
  reactivateBody:
    'Réactiver {name} ? La connexion redevient possible ; les jetons émis auparavant restent refusés.',
  confirm: 'Confirmer',
  userChanged: 'L’utilisateur a été modifié.',
  usersCliHint:
    'La ligne de commande fait de même : assay users list, create, update, deactivate et reactivate.',
};

const ALL: Record<Language, AccessStrings> = { enUS, nlNL, esES, frFR };

export const accessStrings = (language: Language): AccessStrings => ALL[language];
