import type { Language } from '../variants/variant.types.js';

/**
 * The words of the console's members, groups and CSV import, in its four languages (the shape of
 * strings.ts). `{name}`-style placeholders are filled by `fill` and escaped with the rest.
 */
export interface MembersStrings {
  readonly membersTitle: string;
  readonly addMember: string;
  readonly importMembers: string;
  readonly searchLabel: string;
  readonly searchHint: string;
  readonly search: string;
  readonly showAll: string;
  readonly membersCaption: string;
  /** "Members whose e-mail address or name starts with “{q}”" */
  readonly searchCaption: string;
  readonly colName: string;
  readonly colEmail: string;
  readonly colGroup: string;
  readonly colStatus: string;
  readonly noMembersYet: string;
  /** "No member's e-mail address or name starts with “{q}”." */
  readonly noResults: string;
  readonly noGroup: string;
  readonly statusActive: string;
  readonly statusInactive: string;

  readonly fieldTitle: string;
  readonly fieldFirstname: string;
  readonly fieldMiddlename: string;
  readonly fieldLastname: string;
  readonly fieldEmail: string;
  readonly fieldPhone: string;
  readonly fieldCompany: string;
  readonly fieldJobtitle: string;
  readonly fieldStatus: string;
  readonly fieldGroup: string;
  readonly fieldCreated: string;
  /** Appended to an optional field's label: " (optional)". */
  readonly optional: string;
  readonly details: string;
  readonly editMember: string;
  /** The member page's link to their data export (GDPR art. 15), a JSON file. */
  readonly downloadData: string;
  readonly campaigns: string;
  readonly campaignsCaption: string;
  readonly colCampaign: string;
  readonly colCampaignStatus: string;
  readonly colParticipation: string;
  readonly participationNew: string;
  readonly participationInvited: string;
  readonly participationStarted: string;
  readonly participationCompleted: string;
  readonly noCampaigns: string;
  readonly reports: string;
  readonly reportsCaption: string;
  readonly colReport: string;
  readonly colDate: string;
  readonly noReports: string;
  readonly addMemberTitle: string;
  readonly editMemberTitle: string;
  readonly save: string;
  readonly cancel: string;

  readonly groupsTitle: string;
  readonly createGroup: string;
  readonly noGroupsYet: string;
  /** "{count} members" */
  readonly memberCount: string;
  readonly memberCountOne: string;
  readonly groupTree: string;
  readonly rename: string;
  readonly move: string;
  readonly moveMembers: string;
  /** Hidden after an action's text: " {name}". */
  readonly createGroupTitle: string;
  readonly groupName: string;
  readonly groupAlias: string;
  readonly groupAliasHint: string;
  readonly groupParent: string;
  readonly atTheTop: string;
  /** "Rename {name}" */
  readonly renameTitle: string;
  /** "Move {name}" */
  readonly moveTitle: string;
  readonly moveHint: string;
  /** "Move members of {name}" */
  readonly moveMembersTitle: string;
  readonly chooseMembers: string;
  readonly targetGroup: string;
  readonly noMembersInGroup: string;
  readonly noMemberChosen: string;
  readonly noTargetChosen: string;

  readonly importTitle: string;
  readonly importIntro: string;
  readonly importColumns: string;
  readonly fileLabel: string;
  readonly fileHint: string;
  readonly pasteLabel: string;
  readonly pasteHint: string;
  readonly importGroup: string;
  readonly importNoGroup: string;
  readonly importUpdate: string;
  readonly importUpdateHint: string;
  readonly checkFile: string;
  readonly noFile: string;
  readonly notUtf8: string;
  readonly tooLarge: string;
  /** "There are problems with {name}" */
  readonly problemsTitle: string;
  readonly problemsBody: string;
  /** "Only showing the first {count} rows with errors" */
  readonly onlyFirstErrors: string;
  readonly errorsCaption: string;
  readonly colRow: string;
  readonly colProblem: string;
  readonly uploadAgain: string;
  /** "Check {name} before you import it" */
  readonly checkTitle: string;
  /** "{count} rows are ready to import. Nothing has been written yet." */
  readonly checkBody: string;
  /** "Only showing the first {count} rows" */
  readonly onlyFirstRows: string;
  readonly rowsCaption: string;
  /** "Import {count} members" */
  readonly importButton: string;
  readonly importButtonOne: string;
  readonly doneTitle: string;
  /** "{count} members added" */
  readonly doneCreated: string;
  /** "{count} members updated" */
  readonly doneUpdated: string;
  /** "{count} rows refused" */
  readonly doneRefused: string;
  readonly goToMembers: string;
  readonly uploadGoneTitle: string;
  readonly uploadGoneBody: string;
  readonly fileProblemTitle: string;
}

const enUS: MembersStrings = {
  membersTitle: 'Members',
  addMember: 'Add a member',
  importMembers: 'Import members from a CSV file',
  searchLabel: 'Search members',
  searchHint: 'Finds members whose e-mail address, first name or last name starts with what you type.',
  search: 'Search',
  showAll: 'Show all members',
  membersCaption: 'Members, by e-mail address',
  searchCaption: 'Members whose e-mail address or name starts with “{q}”',
  colName: 'Name',
  colEmail: 'E-mail address',
  colGroup: 'Group',
  colStatus: 'Status',
  noMembersYet: 'There are no members yet. Add them one by one, or import a CSV file.',
  noResults: 'No member’s e-mail address or name starts with “{q}”.',
  noGroup: 'No group',
  statusActive: 'Active',
  statusInactive: 'Inactive',

  fieldTitle: 'Title',
  fieldFirstname: 'First name',
  fieldMiddlename: 'Middle name',
  fieldLastname: 'Last name',
  fieldEmail: 'E-mail address',
  fieldPhone: 'Phone number',
  fieldCompany: 'Company',
  fieldJobtitle: 'Job title',
  fieldStatus: 'Status',
  fieldGroup: 'Group',
  fieldCreated: 'Added on',
  optional: ' (optional)',
  details: 'Details',
  editMember: 'Edit the details',
  downloadData: 'Download their data',
  campaigns: 'Campaigns',
  campaignsCaption: 'The campaigns this member takes part in',
  colCampaign: 'Campaign',
  colCampaignStatus: 'Campaign status',
  colParticipation: 'Participation',
  participationNew: 'Not invited',
  participationInvited: 'Invited',
  participationStarted: 'Started',
  participationCompleted: 'Completed',
  noCampaigns: 'This member takes part in no campaign.',
  reports: 'Reports',
  reportsCaption: 'The reports about this member',
  colReport: 'Report',
  colDate: 'Date',
  noReports: 'There is no report about this member.',
  addMemberTitle: 'Add a member',
  editMemberTitle: 'Edit the member’s details',
  save: 'Save',
  cancel: 'Cancel',

  groupsTitle: 'Groups',
  createGroup: 'Create a group',
  noGroupsYet: 'There are no groups yet.',
  memberCount: '{count} members',
  memberCountOne: '1 member',
  groupTree: 'Groups and their sub-groups',
  rename: 'Rename',
  move: 'Move',
  moveMembers: 'Move members',
  createGroupTitle: 'Create a group',
  groupName: 'Name',
  groupAlias: 'Short name',
  groupAliasHint: 'Letters, digits, _ and - only. Links and the API use it; it cannot be changed later.',
  groupParent: 'Put it in',
  atTheTop: 'At the top (in no other group)',
  renameTitle: 'Rename {name}',
  moveTitle: 'Move {name}',
  moveHint: 'The group takes its sub-groups and members with it.',
  moveMembersTitle: 'Move members of {name}',
  chooseMembers: 'Members to move',
  targetGroup: 'Move them to',
  noMembersInGroup: 'This group has no members.',
  noMemberChosen: 'Choose at least one member',
  noTargetChosen: 'Choose the group to move them to',

  importTitle: 'Import members',
  importIntro:
    'Upload a CSV file with a header row. Nothing is imported until you have checked the rows and confirmed.',
  importColumns:
    'The columns email, firstname and lastname are needed; title, middlename, phone, company, jobtitle, status, level, testuser and extra.<name> may follow.',
  fileLabel: 'CSV file',
  fileHint: 'Saved as UTF-8, up to 64 MB.',
  pasteLabel: 'Or paste the rows of the file',
  pasteHint: 'Used only when no file is chosen.',
  importGroup: 'Put new members in a group',
  importNoGroup: 'No group',
  importUpdate: 'Update members whose e-mail address already exists',
  importUpdateHint: 'Without this, a row with an existing e-mail address is refused.',
  checkFile: 'Check the file',
  noFile: 'Choose a CSV file, or paste its rows',
  notUtf8: 'The file must be saved as UTF-8',
  tooLarge: 'The file must be smaller than 64 MB',
  problemsTitle: 'There are problems with {name}',
  problemsBody: 'Fix these rows in the file and upload it again. Nothing has been imported.',
  onlyFirstErrors: 'Only showing the first {count} rows with errors',
  errorsCaption: 'Rows with errors',
  colRow: 'Row',
  colProblem: 'Problem',
  uploadAgain: 'Upload your file again',
  checkTitle: 'Check {name} before you import it',
  checkBody: '{count} rows are ready to import. Nothing has been written yet.',
  onlyFirstRows: 'Only showing the first {count} rows',
  rowsCaption: 'Rows of the file',
  importButton: 'Import {count} members',
  importButtonOne: 'Import 1 member',
  doneTitle: 'Import finished',
  doneCreated: 'Members added: {count}',
  doneUpdated: 'Members updated: {count}',
  doneRefused: 'Rows refused: {count}',
  goToMembers: 'Go to the member list',
  uploadGoneTitle: 'This upload cannot be imported',
  uploadGoneBody: 'It has expired, or it was uploaded in another session. Upload the file again.',
  fileProblemTitle: 'The file cannot be read',
};

const nlNL: MembersStrings = {
  membersTitle: 'Deelnemers',
  addMember: 'Deelnemer toevoegen',
  importMembers: 'Deelnemers importeren uit een CSV-bestand',
  searchLabel: 'Deelnemers zoeken',
  searchHint: 'Vindt deelnemers van wie het e-mailadres, de voornaam of de achternaam begint met wat u typt.',
  search: 'Zoeken',
  showAll: 'Alle deelnemers tonen',
  membersCaption: 'Deelnemers, op e-mailadres',
  searchCaption: 'Deelnemers van wie het e-mailadres of de naam begint met “{q}”',
  colName: 'Naam',
  colEmail: 'E-mailadres',
  colGroup: 'Groep',
  colStatus: 'Status',
  noMembersYet: 'Er zijn nog geen deelnemers. Voeg ze een voor een toe, of importeer een CSV-bestand.',
  noResults: 'Van geen enkele deelnemer begint het e-mailadres of de naam met “{q}”.',
  noGroup: 'Geen groep',
  statusActive: 'Actief',
  statusInactive: 'Inactief',

  fieldTitle: 'Aanhef',
  fieldFirstname: 'Voornaam',
  fieldMiddlename: 'Tussenvoegsel',
  fieldLastname: 'Achternaam',
  fieldEmail: 'E-mailadres',
  fieldPhone: 'Telefoonnummer',
  fieldCompany: 'Bedrijf',
  fieldJobtitle: 'Functie',
  fieldStatus: 'Status',
  fieldGroup: 'Groep',
  fieldCreated: 'Toegevoegd op',
  optional: ' (optioneel)',
  details: 'Gegevens',
  editMember: 'Gegevens wijzigen',
  downloadData: 'Hun gegevens downloaden',
  campaigns: 'Campagnes',
  campaignsCaption: 'De campagnes waaraan deze deelnemer meedoet',
  colCampaign: 'Campagne',
  colCampaignStatus: 'Status van de campagne',
  colParticipation: 'Deelname',
  participationNew: 'Niet uitgenodigd',
  participationInvited: 'Uitgenodigd',
  participationStarted: 'Begonnen',
  participationCompleted: 'Afgerond',
  noCampaigns: 'Deze deelnemer doet aan geen enkele campagne mee.',
  reports: 'Rapporten',
  reportsCaption: 'De rapporten over deze deelnemer',
  colReport: 'Rapport',
  colDate: 'Datum',
  noReports: 'Er is geen rapport over deze deelnemer.',
  addMemberTitle: 'Deelnemer toevoegen',
  editMemberTitle: 'Gegevens van de deelnemer wijzigen',
  save: 'Opslaan',
  cancel: 'Annuleren',

  groupsTitle: 'Groepen',
  createGroup: 'Groep aanmaken',
  noGroupsYet: 'Er zijn nog geen groepen.',
  memberCount: '{count} deelnemers',
  memberCountOne: '1 deelnemer',
  groupTree: 'Groepen en hun subgroepen',
  rename: 'Naam wijzigen',
  move: 'Verplaatsen',
  moveMembers: 'Deelnemers verplaatsen',
  createGroupTitle: 'Groep aanmaken',
  groupName: 'Naam',
  groupAlias: 'Korte naam',
  groupAliasHint:
    'Alleen letters, cijfers, _ en -. Links en de API gebruiken deze naam; u kunt hem later niet wijzigen.',
  groupParent: 'Plaatsen in',
  atTheTop: 'Bovenaan (in geen andere groep)',
  renameTitle: 'Naam van {name} wijzigen',
  moveTitle: '{name} verplaatsen',
  moveHint: 'De groep neemt haar subgroepen en deelnemers mee.',
  moveMembersTitle: 'Deelnemers van {name} verplaatsen',
  chooseMembers: 'Te verplaatsen deelnemers',
  targetGroup: 'Verplaatsen naar',
  noMembersInGroup: 'Deze groep heeft geen deelnemers.',
  noMemberChosen: 'Kies ten minste één deelnemer',
  noTargetChosen: 'Kies de groep waarnaar u ze wilt verplaatsen',

  importTitle: 'Deelnemers importeren',
  importIntro:
    'Upload een CSV-bestand met een kopregel. Er wordt niets geïmporteerd voordat u de regels hebt gecontroleerd en bevestigd.',
  importColumns:
    'De kolommen email, firstname en lastname zijn nodig; title, middlename, phone, company, jobtitle, status, level, testuser en extra.<naam> mogen volgen.',
  fileLabel: 'CSV-bestand',
  fileHint: 'Opgeslagen als UTF-8, tot 64 MB.',
  pasteLabel: 'Of plak de regels van het bestand',
  pasteHint: 'Wordt alleen gebruikt als er geen bestand is gekozen.',
  importGroup: 'Nieuwe deelnemers in een groep plaatsen',
  importNoGroup: 'Geen groep',
  importUpdate: 'Deelnemers bijwerken van wie het e-mailadres al bestaat',
  importUpdateHint: 'Zonder deze keuze wordt een regel met een bestaand e-mailadres geweigerd.',
  checkFile: 'Bestand controleren',
  noFile: 'Kies een CSV-bestand, of plak de regels ervan',
  notUtf8: 'Het bestand moet als UTF-8 zijn opgeslagen',
  tooLarge: 'Het bestand moet kleiner zijn dan 64 MB',
  problemsTitle: 'Er zijn problemen met {name}',
  problemsBody: 'Verbeter deze regels in het bestand en upload het opnieuw. Er is niets geïmporteerd.',
  onlyFirstErrors: 'Alleen de eerste {count} regels met fouten worden getoond',
  errorsCaption: 'Regels met fouten',
  colRow: 'Regel',
  colProblem: 'Probleem',
  uploadAgain: 'Upload uw bestand opnieuw',
  checkTitle: 'Controleer {name} voordat u het importeert',
  checkBody: '{count} regels zijn klaar om te importeren. Er is nog niets opgeslagen.',
  onlyFirstRows: 'Alleen de eerste {count} regels worden getoond',
  rowsCaption: 'Regels van het bestand',
  importButton: '{count} deelnemers importeren',
  importButtonOne: '1 deelnemer importeren',
  doneTitle: 'Import voltooid',
  doneCreated: 'Deelnemers toegevoegd: {count}',
  doneUpdated: 'Deelnemers bijgewerkt: {count}',
  doneRefused: 'Regels geweigerd: {count}',
  goToMembers: 'Naar de lijst met deelnemers',
  uploadGoneTitle: 'Deze upload kan niet worden geïmporteerd',
  uploadGoneBody: 'Hij is verlopen, of in een andere sessie geüpload. Upload het bestand opnieuw.',
  fileProblemTitle: 'Het bestand kan niet worden gelezen',
};

const esES: MembersStrings = {
  membersTitle: 'Participantes',
  addMember: 'Añadir un participante',
  importMembers: 'Importar participantes desde un archivo CSV',
  searchLabel: 'Buscar participantes',
  searchHint:
    'Encuentra a los participantes cuyo correo electrónico, nombre o apellido empieza por lo que usted escribe.',
  search: 'Buscar',
  showAll: 'Mostrar todos los participantes',
  membersCaption: 'Participantes, por correo electrónico',
  searchCaption: 'Participantes cuyo correo electrónico o nombre empieza por «{q}»',
  colName: 'Nombre',
  colEmail: 'Correo electrónico',
  colGroup: 'Grupo',
  colStatus: 'Estado',
  noMembersYet: 'Todavía no hay participantes. Añádalos uno a uno o importe un archivo CSV.',
  noResults: 'Ningún participante tiene un correo electrónico o un nombre que empiece por «{q}».',
  noGroup: 'Sin grupo',
  statusActive: 'Activo',
  statusInactive: 'Inactivo',

  fieldTitle: 'Tratamiento',
  fieldFirstname: 'Nombre',
  fieldMiddlename: 'Segundo nombre',
  fieldLastname: 'Apellidos',
  fieldEmail: 'Correo electrónico',
  fieldPhone: 'Teléfono',
  fieldCompany: 'Empresa',
  fieldJobtitle: 'Cargo',
  fieldStatus: 'Estado',
  fieldGroup: 'Grupo',
  fieldCreated: 'Añadido el',
  optional: ' (opcional)',
  details: 'Datos',
  editMember: 'Modificar los datos',
  downloadData: 'Descargar sus datos',
  campaigns: 'Campañas',
  campaignsCaption: 'Las campañas en las que participa',
  colCampaign: 'Campaña',
  colCampaignStatus: 'Estado de la campaña',
  colParticipation: 'Participación',
  participationNew: 'Sin invitar',
  participationInvited: 'Invitado',
  participationStarted: 'Empezado',
  participationCompleted: 'Completado',
  noCampaigns: 'Este participante no participa en ninguna campaña.',
  reports: 'Informes',
  reportsCaption: 'Los informes sobre este participante',
  colReport: 'Informe',
  colDate: 'Fecha',
  noReports: 'No hay ningún informe sobre este participante.',
  addMemberTitle: 'Añadir un participante',
  editMemberTitle: 'Modificar los datos del participante',
  save: 'Guardar',
  cancel: 'Cancelar',

  groupsTitle: 'Grupos',
  createGroup: 'Crear un grupo',
  noGroupsYet: 'Todavía no hay grupos.',
  memberCount: '{count} participantes',
  memberCountOne: '1 participante',
  groupTree: 'Grupos y sus subgrupos',
  rename: 'Cambiar el nombre',
  move: 'Mover',
  moveMembers: 'Mover participantes',
  createGroupTitle: 'Crear un grupo',
  groupName: 'Nombre',
  groupAlias: 'Nombre corto',
  groupAliasHint:
    'Solo letras, cifras, _ y -. Lo usan los enlaces y la API; no podrá cambiarlo más adelante.',
  groupParent: 'Colocarlo en',
  atTheTop: 'Arriba (en ningún otro grupo)',
  renameTitle: 'Cambiar el nombre de {name}',
  moveTitle: 'Mover {name}',
  moveHint: 'El grupo se lleva consigo sus subgrupos y sus participantes.',
  moveMembersTitle: 'Mover participantes de {name}',
  chooseMembers: 'Participantes que se moverán',
  targetGroup: 'Moverlos a',
  noMembersInGroup: 'Este grupo no tiene participantes.',
  noMemberChosen: 'Elija al menos un participante',
  noTargetChosen: 'Elija el grupo al que desea moverlos',

  importTitle: 'Importar participantes',
  importIntro:
    'Suba un archivo CSV con una fila de encabezado. No se importa nada hasta que usted haya revisado las filas y lo haya confirmado.',
  importColumns:
    'Las columnas email, firstname y lastname son necesarias; pueden seguir title, middlename, phone, company, jobtitle, status, level, testuser y extra.<nombre>.',
  fileLabel: 'Archivo CSV',
  fileHint: 'Guardado como UTF-8, hasta 64 MB.',
  pasteLabel: 'O pegue las filas del archivo',
  pasteHint: 'Solo se usa si no se elige ningún archivo.',
  importGroup: 'Colocar a los nuevos participantes en un grupo',
  importNoGroup: 'Sin grupo',
  importUpdate: 'Actualizar a los participantes cuyo correo electrónico ya existe',
  importUpdateHint: 'Sin esta opción, se rechaza una fila con un correo electrónico que ya existe.',
  checkFile: 'Revisar el archivo',
  noFile: 'Elija un archivo CSV o pegue sus filas',
  notUtf8: 'El archivo debe estar guardado como UTF-8',
  tooLarge: 'El archivo debe ocupar menos de 64 MB',
  problemsTitle: 'Hay problemas con {name}',
  problemsBody: 'Corrija estas filas en el archivo y vuelva a subirlo. No se ha importado nada.',
  onlyFirstErrors: 'Solo se muestran las primeras {count} filas con errores',
  errorsCaption: 'Filas con errores',
  colRow: 'Fila',
  colProblem: 'Problema',
  uploadAgain: 'Vuelva a subir su archivo',
  checkTitle: 'Revise {name} antes de importarlo',
  checkBody: '{count} filas están listas para importar. Todavía no se ha guardado nada.',
  onlyFirstRows: 'Solo se muestran las primeras {count} filas',
  rowsCaption: 'Filas del archivo',
  importButton: 'Importar {count} participantes',
  importButtonOne: 'Importar 1 participante',
  doneTitle: 'Importación terminada',
  doneCreated: 'Participantes añadidos: {count}',
  doneUpdated: 'Participantes actualizados: {count}',
  doneRefused: 'Filas rechazadas: {count}',
  goToMembers: 'Ir a la lista de participantes',
  uploadGoneTitle: 'Este archivo no se puede importar',
  uploadGoneBody: 'Ha caducado o se subió en otra sesión. Vuelva a subir el archivo.',
  fileProblemTitle: 'El archivo no se puede leer',
};

const frFR: MembersStrings = {
  membersTitle: 'Participants',
  addMember: 'Ajouter un participant',
  importMembers: 'Importer des participants depuis un fichier CSV',
  searchLabel: 'Rechercher des participants',
  searchHint:
    'Trouve les participants dont l’adresse e-mail, le prénom ou le nom commence par ce que vous tapez.',
  search: 'Rechercher',
  showAll: 'Afficher tous les participants',
  membersCaption: 'Participants, par adresse e-mail',
  searchCaption: 'Participants dont l’adresse e-mail ou le nom commence par « {q} »',
  colName: 'Nom',
  colEmail: 'Adresse e-mail',
  colGroup: 'Groupe',
  colStatus: 'Statut',
  noMembersYet: 'Il n’y a pas encore de participants. Ajoutez-les un par un, ou importez un fichier CSV.',
  noResults: 'Aucun participant n’a une adresse e-mail ou un nom commençant par « {q} ».',
  noGroup: 'Aucun groupe',
  statusActive: 'Actif',
  statusInactive: 'Inactif',

  fieldTitle: 'Civilité',
  fieldFirstname: 'Prénom',
  fieldMiddlename: 'Deuxième prénom',
  fieldLastname: 'Nom',
  fieldEmail: 'Adresse e-mail',
  fieldPhone: 'Téléphone',
  fieldCompany: 'Entreprise',
  fieldJobtitle: 'Fonction',
  fieldStatus: 'Statut',
  fieldGroup: 'Groupe',
  fieldCreated: 'Ajouté le',
  optional: ' (facultatif)',
  details: 'Coordonnées',
  editMember: 'Modifier les coordonnées',
  downloadData: 'Télécharger leurs données',
  campaigns: 'Campagnes',
  campaignsCaption: 'Les campagnes auxquelles ce participant prend part',
  colCampaign: 'Campagne',
  colCampaignStatus: 'Statut de la campagne',
  colParticipation: 'Participation',
  participationNew: 'Non invité',
  participationInvited: 'Invité',
  participationStarted: 'Commencé',
  participationCompleted: 'Terminé',
  noCampaigns: 'Ce participant ne prend part à aucune campagne.',
  reports: 'Rapports',
  reportsCaption: 'Les rapports sur ce participant',
  colReport: 'Rapport',
  colDate: 'Date',
  noReports: 'Il n’y a aucun rapport sur ce participant.',
  addMemberTitle: 'Ajouter un participant',
  editMemberTitle: 'Modifier les coordonnées du participant',
  save: 'Enregistrer',
  cancel: 'Annuler',

  groupsTitle: 'Groupes',
  createGroup: 'Créer un groupe',
  noGroupsYet: 'Il n’y a pas encore de groupes.',
  memberCount: '{count} participants',
  memberCountOne: '1 participant',
  groupTree: 'Les groupes et leurs sous-groupes',
  rename: 'Renommer',
  move: 'Déplacer',
  moveMembers: 'Déplacer des participants',
  createGroupTitle: 'Créer un groupe',
  groupName: 'Nom',
  groupAlias: 'Nom court',
  groupAliasHint:
    'Lettres, chiffres, _ et - uniquement. Les liens et l’API l’utilisent ; vous ne pourrez pas le modifier ensuite.',
  groupParent: 'Le placer dans',
  atTheTop: 'En haut (dans aucun autre groupe)',
  renameTitle: 'Renommer {name}',
  moveTitle: 'Déplacer {name}',
  moveHint: 'Le groupe emporte ses sous-groupes et ses participants.',
  moveMembersTitle: 'Déplacer des participants de {name}',
  chooseMembers: 'Participants à déplacer',
  targetGroup: 'Les déplacer vers',
  noMembersInGroup: 'Ce groupe n’a aucun participant.',
  noMemberChosen: 'Choisissez au moins un participant',
  noTargetChosen: 'Choisissez le groupe vers lequel les déplacer',

  importTitle: 'Importer des participants',
  importIntro:
    'Téléversez un fichier CSV avec une ligne d’en-tête. Rien n’est importé avant que vous ayez vérifié les lignes et confirmé.',
  importColumns:
    'Les colonnes email, firstname et lastname sont nécessaires ; title, middlename, phone, company, jobtitle, status, level, testuser et extra.<nom> peuvent suivre.',
  fileLabel: 'Fichier CSV',
  fileHint: 'Enregistré en UTF-8, jusqu’à 64 Mo.',
  pasteLabel: 'Ou collez les lignes du fichier',
  pasteHint: 'Utilisé seulement si aucun fichier n’est choisi.',
  importGroup: 'Placer les nouveaux participants dans un groupe',
  importNoGroup: 'Aucun groupe',
  importUpdate: 'Mettre à jour les participants dont l’adresse e-mail existe déjà',
  importUpdateHint: 'Sans ce choix, une ligne dont l’adresse e-mail existe déjà est refusée.',
  checkFile: 'Vérifier le fichier',
  noFile: 'Choisissez un fichier CSV, ou collez ses lignes',
  notUtf8: 'Le fichier doit être enregistré en UTF-8',
  tooLarge: 'Le fichier doit faire moins de 64 Mo',
  problemsTitle: 'Il y a des problèmes dans {name}',
  problemsBody: 'Corrigez ces lignes dans le fichier et téléversez-le à nouveau. Rien n’a été importé.',
  onlyFirstErrors: 'Seules les {count} premières lignes en erreur sont affichées',
  errorsCaption: 'Lignes en erreur',
  colRow: 'Ligne',
  colProblem: 'Problème',
  uploadAgain: 'Téléversez à nouveau votre fichier',
  checkTitle: 'Vérifiez {name} avant de l’importer',
  checkBody: '{count} lignes sont prêtes à être importées. Rien n’a encore été enregistré.',
  onlyFirstRows: 'Seules les {count} premières lignes sont affichées',
  rowsCaption: 'Lignes du fichier',
  importButton: 'Importer {count} participants',
  importButtonOne: 'Importer 1 participant',
  doneTitle: 'Importation terminée',
  doneCreated: 'Participants ajoutés : {count}',
  doneUpdated: 'Participants mis à jour : {count}',
  doneRefused: 'Lignes refusées : {count}',
  goToMembers: 'Aller à la liste des participants',
  uploadGoneTitle: 'Ce fichier ne peut pas être importé',
  uploadGoneBody:
    'Il a expiré, ou il a été téléversé dans une autre session. Téléversez à nouveau le fichier.',
  fileProblemTitle: 'Le fichier ne peut pas être lu',
};

const ALL: Readonly<Record<Language, MembersStrings>> = { enUS, nlNL, esES, frFR };

export function membersStrings(language: Language): MembersStrings {
  return ALL[language];
}
