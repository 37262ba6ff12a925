import type { WebhookEvent } from '@assay/schema';
import type { Language } from '../variants/variant.types.js';

/**
 * The words of the webhooks pages (console/views/webhooks.view.ts), in the console's four
 * languages. `{name}`-style placeholders are filled by `fill` (pages/strings.ts).
 */
export interface WebhooksStrings {
  readonly nav: string;
  readonly title: string;
  readonly intro: string;
  readonly caption: string;
  readonly none: string;
  readonly add: string;
  readonly url: string;
  readonly urlHint: string;
  readonly events: string;
  readonly eventsHint: string;
  /** Each event in plain words (the event's own name is shown beside it). */
  readonly eventWords: Readonly<Record<WebhookEvent, string>>;
  readonly description: string;
  readonly descriptionHint: string;
  readonly status: string;
  readonly enabled: string;
  readonly disabled: string;
  /** "Disabled: {reason}" */
  readonly disabledBecause: string;
  /** "Failing since {date}" */
  readonly failingSince: string;
  readonly created: string;
  readonly updated: string;
  readonly newTitle: string;
  readonly create: string;
  readonly editTitle: string;
  readonly edit: string;
  readonly save: string;
  readonly cancel: string;
  readonly eventsMissing: string;
  readonly urlMissing: string;
  readonly secretTitle: string;
  readonly secretLabel: string;
  /** The secret is shown once; how a receiver uses it. */
  readonly secretWarning: string;
  readonly secretUse: string;
  readonly backToWebhook: string;
  readonly backToList: string;
  readonly test: string;
  readonly testHint: string;
  /** "A test event was queued: {id}." */
  readonly testQueued: string;
  readonly disable: string;
  readonly disableHint: string;
  readonly enable: string;
  readonly enableHint: string;
  readonly enabledNotice: string;
  readonly disabledNotice: string;
  readonly savedNotice: string;
  readonly rotate: string;
  readonly rotateHint: string;
  readonly delete: string;
  readonly deleteTitle: string;
  /** "Delete the webhook to {url}? Its messages not yet delivered are dropped." */
  readonly deleteBody: string;
  /** "The webhook to {name} has been deleted." */
  readonly deleted: string;
  readonly deliveries: string;
  readonly deliveriesCaption: string;
  readonly noDeliveries: string;
  readonly when: string;
  readonly event: string;
  readonly attempt: string;
  readonly answer: string;
  readonly duration: string;
  /** "{ms} ms" */
  readonly milliseconds: string;
  readonly messageStatus: string;
  readonly messageStatuses: Readonly<Record<'queued' | 'sending' | 'delivered' | 'failed', string>>;
  readonly cliHint: string;
}

const enUS: WebhooksStrings = {
  nav: 'Webhooks',
  title: 'Webhooks',
  intro:
    'A webhook sends an event to another system’s address as it happens: a participant invited, started or done, a report made or deleted, a campaign ended. Each message is signed (Standard Webhooks), and retried for 24 hours until the receiver takes it.',
  caption: 'Webhooks, oldest first',
  none: 'There are no webhooks yet.',
  add: 'Add a webhook',
  url: 'Address',
  urlHint: 'The receiver’s address, starting with https://, for example https://example.com/assay-events',
  events: 'Events',
  eventsHint: 'Select the events to send.',
  eventWords: {
    'campaignmember.invited': 'A participant is invited',
    'campaignmember.started': 'A participant starts the questionnaire',
    'campaignmember.completed': 'A participant completes the questionnaire',
    'report.created': 'A report is made',
    'report.deleted': 'A report is deleted',
    'campaign.ended': 'A campaign ends',
    'member.deleted': 'A member is deleted',
    'mail.failed': 'A mail cannot be delivered',
  },
  description: 'Description (optional)',
  descriptionHint: 'What the receiver is, for whoever reads this list later.',
  status: 'Status',
  enabled: 'On',
  disabled: 'Off',
  disabledBecause: 'Off: {reason}',
  failingSince: 'Failing since {date}',
  created: 'Created',
  updated: 'Changed',
  newTitle: 'Add a webhook',
  create: 'Add webhook',
  editTitle: 'Change the webhook',
  edit: 'Change',
  save: 'Save',
  cancel: 'Cancel',
  eventsMissing: 'Select at least one event',
  urlMissing: 'Enter the receiver’s address',
  secretTitle: 'The webhook’s signing secret',
  secretLabel: 'Signing secret',
  secretWarning: 'Copy the secret now: it will not be shown again.',
  secretUse:
    'The receiver checks each message’s signature with it (the webhook-signature header; the standardwebhooks libraries do it).',
  backToWebhook: 'Back to the webhook',
  backToList: 'Back to the webhooks',
  test: 'Send a test event',
  testHint: 'A webhook.test event goes to this address only; it shows below as a delivery.',
  testQueued: 'A test event was queued: {id}.',
  disable: 'Turn off',
  disableHint: 'No events are sent while it is off; messages waiting are dropped.',
  enable: 'Turn on',
  enableHint: 'Events are sent again from now on.',
  enabledNotice: 'The webhook is on.',
  disabledNotice: 'The webhook is off.',
  savedNotice: 'The change was saved.',
  rotate: 'Make a new secret',
  rotateHint: 'The old secret keeps signing for 24 hours beside the new one, so the receiver can switch.',
  delete: 'Delete webhook',
  deleteTitle: 'Delete the webhook?',
  deleteBody: 'Delete the webhook to {url}? Its messages not yet delivered are dropped.',
  deleted: 'The webhook to {name} has been deleted.',
  deliveries: 'Latest deliveries',
  deliveriesCaption: 'Delivery attempts, newest first',
  noDeliveries: 'Nothing has been sent yet.',
  when: 'When',
  event: 'Event',
  attempt: 'Attempt',
  answer: 'Answer',
  duration: 'Time',
  milliseconds: '{ms} ms',
  messageStatus: 'Message',
  messageStatuses: { queued: 'Waiting', sending: 'Sending', delivered: 'Delivered', failed: 'Failed' },
  cliHint:
    'The same on the command line: assay webhooks list, create, show, update, rotate, test, deliveries, delete.',
};

const nlNL: WebhooksStrings = {
  nav: 'Webhooks',
  title: 'Webhooks',
  intro:
    'Een webhook stuurt een gebeurtenis naar het adres van een ander systeem zodra die plaatsvindt: een deelnemer uitgenodigd, begonnen of klaar, een rapport gemaakt of verwijderd, een campagne afgelopen. Elk bericht is ondertekend (Standard Webhooks) en wordt 24 uur lang opnieuw verstuurd totdat de ontvanger het aanneemt.',
  caption: 'Webhooks, oudste eerst',
  none: 'Er zijn nog geen webhooks.',
  add: 'Een webhook toevoegen',
  url: 'Adres',
  urlHint:
    'Het adres van de ontvanger, beginnend met https://, bijvoorbeeld https://example.com/assay-events',
  events: 'Gebeurtenissen',
  eventsHint: 'Selecteer de gebeurtenissen die verstuurd worden.',
  eventWords: {
    'campaignmember.invited': 'Een deelnemer wordt uitgenodigd',
    'campaignmember.started': 'Een deelnemer begint aan de vragenlijst',
    'campaignmember.completed': 'Een deelnemer voltooit de vragenlijst',
    'report.created': 'Een rapport wordt gemaakt',
    'report.deleted': 'Een rapport wordt verwijderd',
    'campaign.ended': 'Een campagne loopt af',
    'member.deleted': 'Een deelnemer wordt verwijderd',
    'mail.failed': 'Een e-mail kan niet worden bezorgd',
  },
  description: 'Beschrijving (optioneel)',
  descriptionHint: 'Wat de ontvanger is, voor wie deze lijst later leest.',
  status: 'Status',
  enabled: 'Aan',
  disabled: 'Uit',
  disabledBecause: 'Uit: {reason}',
  failingSince: 'Mislukt sinds {date}',
  created: 'Aangemaakt',
  updated: 'Gewijzigd',
  newTitle: 'Een webhook toevoegen',
  create: 'Webhook toevoegen',
  editTitle: 'De webhook wijzigen',
  edit: 'Wijzigen',
  save: 'Opslaan',
  cancel: 'Annuleren',
  eventsMissing: 'Selecteer ten minste één gebeurtenis',
  urlMissing: 'Vul het adres van de ontvanger in',
  secretTitle: 'Het ondertekeningsgeheim van de webhook',
  secretLabel: 'Ondertekeningsgeheim',
  secretWarning:
    'Kopieer het geheim nu naar een veilige plek. U kunt het niet meer inzien zodra u deze pagina verlaat.',
  secretUse:
    'De ontvanger controleert er de handtekening van elk bericht mee (de header webhook-signature; de standardwebhooks-bibliotheken doen dat).',
  backToWebhook: 'Terug naar de webhook',
  backToList: 'Terug naar de webhooks',
  test: 'Een testgebeurtenis versturen',
  testHint:
    'Een gebeurtenis webhook.test gaat alleen naar dit adres; die verschijnt hieronder als bezorging.',
  testQueued: 'Er is een testgebeurtenis klaargezet: {id}.',
  disable: 'Uitzetten',
  disableHint:
    'Zolang hij uit staat, worden er geen gebeurtenissen verstuurd; wachtende berichten vervallen.',
  enable: 'Aanzetten',
  enableHint: 'Vanaf nu worden er weer gebeurtenissen verstuurd.',
  enabledNotice: 'De webhook staat aan.',
  disabledNotice: 'De webhook staat uit.',
  savedNotice: 'De wijziging is opgeslagen.',
  rotate: 'Een nieuw geheim maken',
  rotateHint: 'Het oude geheim ondertekent nog 24 uur naast het nieuwe, zodat de ontvanger kan overstappen.',
  delete: 'Webhook verwijderen',
  deleteTitle: 'De webhook verwijderen?',
  deleteBody: 'De webhook naar {url} verwijderen? Berichten die nog niet zijn bezorgd, vervallen.',
  deleted: 'De webhook naar {name} is verwijderd.',
  deliveries: 'Laatste bezorgingen',
  deliveriesCaption: 'Bezorgpogingen, nieuwste eerst',
  noDeliveries: 'Er is nog niets verstuurd.',
  when: 'Wanneer',
  event: 'Gebeurtenis',
  attempt: 'Poging',
  answer: 'Antwoord',
  duration: 'Duur',
  milliseconds: '{ms} ms',
  messageStatus: 'Bericht',
  messageStatuses: {
    queued: 'In de wachtrij',
    sending: 'Wordt verstuurd',
    delivered: 'Bezorgd',
    failed: 'Mislukt',
  },
  cliHint:
    'Hetzelfde op de opdrachtregel: assay webhooks list, create, show, update, rotate, test, deliveries, delete.',
};

const esES: WebhooksStrings = {
  nav: 'Webhooks',
  title: 'Webhooks',
  intro:
    'Un webhook envía un evento a la dirección de otro sistema en cuanto se produce: un participante invitado, que empieza o que termina, un informe generado o eliminado, una campaña terminada. Cada mensaje va firmado (Standard Webhooks) y se reintenta durante 24 horas hasta que el destinatario lo acepta.',
  caption: 'Webhooks, los más antiguos primero',
  none: 'Todavía no hay webhooks.',
  add: 'Añadir un webhook',
  url: 'Dirección',
  urlHint:
    'La dirección del destinatario, que empieza por https://, por ejemplo https://example.com/assay-events',
  events: 'Eventos',
  eventsHint: 'Seleccione los eventos que se enviarán.',
  eventWords: {
    'campaignmember.invited': 'Se invita a un participante',
    'campaignmember.started': 'Un participante empieza el cuestionario',
    'campaignmember.completed': 'Un participante completa el cuestionario',
    'report.created': 'Se genera un informe',
    'report.deleted': 'Se elimina un informe',
    'campaign.ended': 'Una campaña termina',
    'member.deleted': 'Se elimina un miembro',
    'mail.failed': 'Un correo no se puede entregar',
  },
  description: 'Descripción (opcional)',
  descriptionHint: 'Qué es el destinatario, para quien lea esta lista más adelante.',
  status: 'Estado',
  enabled: 'Activado',
  disabled: 'Desactivado',
  disabledBecause: 'Desactivado: {reason}',
  failingSince: 'Con fallos desde el {date}',
  created: 'Creado',
  updated: 'Modificado',
  newTitle: 'Añadir un webhook',
  create: 'Añadir webhook',
  editTitle: 'Modificar el webhook',
  edit: 'Modificar',
  save: 'Guardar',
  cancel: 'Cancelar',
  eventsMissing: 'Seleccione al menos un evento',
  urlMissing: 'Introduzca la dirección del destinatario',
  secretTitle: 'El secreto de firma del webhook',
  secretLabel: 'Secreto de firma',
  secretWarning:
    'Copie el secreto ahora en un lugar seguro. No podrá volver a verlo una vez que salga de esta página.',
  secretUse:
    'El destinatario comprueba con él la firma de cada mensaje (la cabecera webhook-signature; las bibliotecas standardwebhooks lo hacen).',
  backToWebhook: 'Volver al webhook',
  backToList: 'Volver a los webhooks',
  test: 'Enviar un evento de prueba',
  testHint: 'Un evento webhook.test va solo a esta dirección; aparece abajo como una entrega.',
  testQueued: 'Se ha puesto en cola un evento de prueba: {id}.',
  disable: 'Desactivar',
  disableHint: 'Mientras está desactivado no se envía ningún evento; los mensajes pendientes se descartan.',
  enable: 'Activar',
  enableHint: 'A partir de ahora se vuelven a enviar eventos.',
  enabledNotice: 'El webhook está activado.',
  disabledNotice: 'El webhook está desactivado.',
  savedNotice: 'El cambio se ha guardado.',
  rotate: 'Crear un secreto nuevo',
  rotateHint:
    'El secreto anterior sigue firmando durante 24 horas junto al nuevo, para que el destinatario pueda cambiar.',
  delete: 'Eliminar el webhook',
  deleteTitle: '¿Eliminar el webhook?',
  deleteBody: '¿Eliminar el webhook a {url}? Sus mensajes aún no entregados se descartan.',
  deleted: 'Se ha eliminado el webhook a {name}.',
  deliveries: 'Últimas entregas',
  deliveriesCaption: 'Intentos de entrega, los más recientes primero',
  noDeliveries: 'Todavía no se ha enviado nada.',
  when: 'Cuándo',
  event: 'Evento',
  attempt: 'Intento',
  answer: 'Respuesta',
  duration: 'Duración',
  milliseconds: '{ms} ms',
  messageStatus: 'Mensaje',
  messageStatuses: { queued: 'En espera', sending: 'Enviándose', delivered: 'Entregado', failed: 'Fallido' },
  cliHint:
    'Lo mismo en la línea de comandos: assay webhooks list, create, show, update, rotate, test, deliveries, delete.',
};

const frFR: WebhooksStrings = {
  nav: 'Webhooks',
  title: 'Webhooks',
  intro:
    'Un webhook envoie un événement à l’adresse d’un autre système dès qu’il se produit : un participant invité, qui commence ou qui termine, un rapport produit ou supprimé, une campagne terminée. Chaque message est signé (Standard Webhooks) et renvoyé pendant 24 heures jusqu’à ce que le destinataire l’accepte.',
  caption: 'Webhooks, les plus anciens d’abord',
  none: 'Il n’y a pas encore de webhook.',
  add: 'Ajouter un webhook',
  url: 'Adresse',
  urlHint: 'L’adresse du destinataire, commençant par https://, par exemple https://example.com/assay-events',
  events: 'Événements',
  eventsHint: 'Sélectionnez les événements à envoyer.',
  eventWords: {
    'campaignmember.invited': 'Un participant est invité',
    'campaignmember.started': 'Un participant commence le questionnaire',
    'campaignmember.completed': 'Un participant termine le questionnaire',
    'report.created': 'Un rapport est produit',
    'report.deleted': 'Un rapport est supprimé',
    'campaign.ended': 'Une campagne se termine',
    'member.deleted': 'Un membre est supprimé',
    'mail.failed': 'Un e-mail ne peut pas être remis',
  },
  description: 'Description (facultative)',
  descriptionHint: 'Ce qu’est le destinataire, pour qui lira cette liste plus tard.',
  status: 'État',
  enabled: 'Activé',
  disabled: 'Désactivé',
  disabledBecause: 'Désactivé : {reason}',
  failingSince: 'En échec depuis le {date}',
  created: 'Créé',
  updated: 'Modifié',
  newTitle: 'Ajouter un webhook',
  create: 'Ajouter le webhook',
  editTitle: 'Modifier le webhook',
  edit: 'Modifier',
  save: 'Enregistrer',
  cancel: 'Annuler',
  eventsMissing: 'Sélectionnez au moins un événement',
  urlMissing: 'Saisissez l’adresse du destinataire',
  secretTitle: 'Le secret de signature du webhook',
  secretLabel: 'Secret de signature',
  secretWarning:
    'Copiez le secret dès maintenant dans un endroit sûr. Vous ne pourrez plus le voir une fois que vous aurez quitté cette page.',
  secretUse:
    'Le destinataire vérifie avec lui la signature de chaque message (l’en-tête webhook-signature ; les bibliothèques standardwebhooks le font).',
  backToWebhook: 'Retour au webhook',
  backToList: 'Retour aux webhooks',
  test: 'Envoyer un événement de test',
  testHint:
    'Un événement webhook.test est envoyé à cette adresse uniquement ; il apparaît ci-dessous comme une livraison.',
  testQueued: 'Un événement de test a été mis en file : {id}.',
  disable: 'Désactiver',
  disableHint:
    'Aucun événement n’est envoyé tant qu’il est désactivé ; les messages en attente sont abandonnés.',
  enable: 'Activer',
  enableHint: 'Les événements sont de nouveau envoyés à partir de maintenant.',
  enabledNotice: 'Le webhook est activé.',
  disabledNotice: 'Le webhook est désactivé.',
  savedNotice: 'La modification a été enregistrée.',
  rotate: 'Créer un nouveau secret',
  rotateHint:
    'L’ancien secret continue de signer pendant 24 heures à côté du nouveau, pour que le destinataire puisse basculer.',
  delete: 'Supprimer le webhook',
  deleteTitle: 'Supprimer le webhook ?',
  deleteBody: 'Supprimer le webhook vers {url} ? Ses messages pas encore remis sont abandonnés.',
  deleted: 'Le webhook vers {name} a été supprimé.',
  deliveries: 'Dernières livraisons',
  deliveriesCaption: 'Tentatives de livraison, les plus récentes d’abord',
  noDeliveries: 'Rien n’a encore été envoyé.',
  when: 'Quand',
  event: 'Événement',
  attempt: 'Tentative',
  answer: 'Réponse',
  duration: 'Durée',
  milliseconds: '{ms} ms',
  messageStatus: 'Message',
  messageStatuses: {
    queued: 'En attente',
    sending: 'En cours d’envoi',
    delivered: 'Remis',
    failed: 'En échec',
  },
  cliHint:
    'La même chose en ligne de commande : assay webhooks list, create, show, update, rotate, test, deliveries, delete.',
};

const ALL: Readonly<Record<Language, WebhooksStrings>> = { enUS, nlNL, esES, frFR };

export const webhooksStrings = (language: Language): WebhooksStrings => ALL[language];
