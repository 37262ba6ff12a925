import type { OutboxStatus } from '../mail/mail.table.js';
import type { PlatformStage } from '../mail/mail.types.js';
import type { Language, MailStage } from '../variants/variant.types.js';

/** The words of the console's outbox pages (console/views/mail.view.ts), in four languages. */
export interface MailStrings {
  readonly nav: string;
  readonly title: string;
  /** "Mail of {campaign}" */
  readonly titleCampaign: string;
  readonly allCampaigns: string;
  readonly statusNames: Readonly<Record<OutboxStatus | 'all', string>>;
  readonly filterBy: string;
  readonly caption: string;
  readonly colRecipient: string;
  readonly colStage: string;
  readonly colStatus: string;
  readonly colCreated: string;
  readonly colAnswer: string;
  readonly none: string;
  readonly older: string;
  readonly newest: string;
  readonly retryFailed: string;
  /** "Send {count} failed mails again" */
  readonly retryFailedCount: string;
  readonly retryFailedOne: string;
  readonly sendCaptured: string;
  readonly sendCapturedOne: string;
  readonly queuedAgainOne: string;
  /** "Send {count} captured mails" */
  readonly sendCapturedCount: string;
  readonly capturedHint: string;
  readonly capturedNoSmtp: string;
  /** "{count} mails queued again." */
  readonly queuedAgain: string;
  readonly mailTitle: string;
  readonly headers: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly messageId: string;
  readonly stage: string;
  readonly language: string;
  readonly status: string;
  readonly attempts: string;
  readonly created: string;
  readonly sent: string;
  readonly nextAttempt: string;
  readonly lastAnswer: string;
  readonly campaign: string;
  readonly textPart: string;
  readonly htmlPart: string;
  readonly openHtml: string;
  readonly notRenderable: string;
  readonly retryOne: string;
  readonly backToOutbox: string;
  readonly stageNames: Readonly<Record<MailStage | PlatformStage, string>>;
}

const enUS: MailStrings = {
  retryFailedOne: 'Send 1 failed mail again',
  sendCapturedOne: 'Send 1 captured mail',
  queuedAgainOne: '1 mail queued for delivery.',
  nav: 'Mail',
  title: 'Mail',
  titleCampaign: 'Mail of {campaign}',
  allCampaigns: 'All campaigns',
  statusNames: {
    all: 'All',
    queued: 'Queued',
    sending: 'Sending',
    sent: 'Sent',
    failed: 'Failed',
    captured: 'Captured',
  },
  filterBy: 'Show mail',
  caption: 'Mail, newest first',
  colRecipient: 'Recipient',
  colStage: 'Mail',
  colStatus: 'Status',
  colCreated: 'Queued on',
  colAnswer: 'Last answer of the mail server',
  none: 'No mail here.',
  older: 'Older mail',
  newest: 'Newest mail',
  retryFailed: 'Failed mail',
  retryFailedCount: 'Send {count} failed mails again',
  sendCaptured: 'Captured mail',
  sendCapturedCount: 'Send {count} captured mails',
  capturedHint: 'Captured mail was kept because no mail server (SMTP_URL) was set when it was due.',
  capturedNoSmtp: 'Set SMTP_URL and restart Assay to send captured mail.',
  queuedAgain: '{count} mails queued for delivery.',
  mailTitle: 'Mail to {recipient}',
  headers: 'Headers and state',
  from: 'From',
  to: 'To',
  subject: 'Subject',
  messageId: 'Message-ID',
  stage: 'Mail',
  language: 'Language',
  status: 'Status',
  attempts: 'Attempts',
  created: 'Queued on',
  sent: 'Sent on',
  nextAttempt: 'Next attempt',
  lastAnswer: 'Last answer of the mail server',
  campaign: 'Campaign',
  textPart: 'Text',
  htmlPart: 'HTML',
  openHtml: 'Open the HTML version',
  notRenderable: 'This mail cannot be shown: {reason}',
  retryOne: 'Send this mail again',
  backToOutbox: 'Back to the mail',
  stageNames: {
    campaign_invitation: 'Invitation',
    campaign_reminder: 'Reminder',
    confirmation_admin: 'Confirmation to the campaign’s admins',
    confirmation_member: 'Confirmation to the participant',
    closing_notification: 'Campaign closed',
    campaign_reportdelivery: 'Report delivery',
    user_invitation: 'Invitation to become a user',
  },
};

const nlNL: MailStrings = {
  retryFailedOne: '1 mislukte e-mail opnieuw versturen',
  sendCapturedOne: '1 vastgehouden e-mail versturen',
  queuedAgainOne: '1 e-mail klaargezet om te versturen.',
  nav: 'E-mail',
  title: 'E-mail',
  titleCampaign: 'E-mail van {campaign}',
  allCampaigns: 'Alle campagnes',
  statusNames: {
    all: 'Alle',
    queued: 'In de wachtrij',
    sending: 'Wordt verstuurd',
    sent: 'Verstuurd',
    failed: 'Mislukt',
    captured: 'Vastgehouden',
  },
  filterBy: 'E-mail tonen',
  caption: 'E-mail, nieuwste eerst',
  colRecipient: 'Ontvanger',
  colStage: 'E-mail',
  colStatus: 'Status',
  colCreated: 'In de wachtrij sinds',
  colAnswer: 'Laatste antwoord van de mailserver',
  none: 'Hier is geen e-mail.',
  older: 'Oudere e-mail',
  newest: 'Nieuwste e-mail',
  retryFailed: 'Mislukte e-mail',
  retryFailedCount: '{count} mislukte e-mails opnieuw versturen',
  sendCaptured: 'Vastgehouden e-mail',
  sendCapturedCount: '{count} vastgehouden e-mails versturen',
  capturedHint:
    'Vastgehouden e-mail is bewaard omdat er geen mailserver (SMTP_URL) was ingesteld toen hij verstuurd moest worden.',
  capturedNoSmtp: 'Stel SMTP_URL in en start Assay opnieuw om vastgehouden e-mail te versturen.',
  queuedAgain: '{count} e-mails klaargezet om te versturen.',
  mailTitle: 'E-mail aan {recipient}',
  headers: 'Kopregels en status',
  from: 'Van',
  to: 'Aan',
  subject: 'Onderwerp',
  messageId: 'Message-ID',
  stage: 'E-mail',
  language: 'Taal',
  status: 'Status',
  attempts: 'Pogingen',
  created: 'In de wachtrij sinds',
  sent: 'Verstuurd op',
  nextAttempt: 'Volgende poging',
  lastAnswer: 'Laatste antwoord van de mailserver',
  campaign: 'Campagne',
  textPart: 'Tekst',
  htmlPart: 'HTML',
  openHtml: 'De HTML-versie openen',
  notRenderable: 'Deze e-mail kan niet worden getoond: {reason}',
  retryOne: 'Deze e-mail opnieuw versturen',
  backToOutbox: 'Terug naar de e-mail',
  stageNames: {
    campaign_invitation: 'Uitnodiging',
    campaign_reminder: 'Herinnering',
    confirmation_admin: 'Bevestiging aan de beheerders van de campagne',
    confirmation_member: 'Bevestiging aan de deelnemer',
    closing_notification: 'Campagne afgesloten',
    campaign_reportdelivery: 'Rapport',
    user_invitation: 'Uitnodiging als gebruiker',
  },
};

const esES: MailStrings = {
  retryFailedOne: 'Volver a enviar 1 correo fallido',
  sendCapturedOne: 'Enviar 1 correo retenido',
  queuedAgainOne: '1 correo preparado para el envío.',
  nav: 'Correo',
  title: 'Correo',
  titleCampaign: 'Correo de {campaign}',
  allCampaigns: 'Todas las campañas',
  statusNames: {
    all: 'Todos',
    queued: 'En cola',
    sending: 'Enviándose',
    sent: 'Enviados',
    failed: 'Fallidos',
    captured: 'Retenidos',
  },
  filterBy: 'Mostrar correo',
  caption: 'Correo, el más reciente primero',
  colRecipient: 'Destinatario',
  colStage: 'Correo',
  colStatus: 'Estado',
  colCreated: 'En cola desde',
  colAnswer: 'Última respuesta del servidor de correo',
  none: 'No hay correo aquí.',
  older: 'Correo anterior',
  newest: 'Correo más reciente',
  retryFailed: 'Correo fallido',
  retryFailedCount: 'Volver a enviar {count} correos fallidos',
  sendCaptured: 'Correo retenido',
  sendCapturedCount: 'Enviar {count} correos retenidos',
  capturedHint:
    'El correo retenido se guardó porque no había ningún servidor de correo (SMTP_URL) configurado cuando debía enviarse.',
  capturedNoSmtp: 'Configure SMTP_URL y reinicie Assay para enviar el correo retenido.',
  queuedAgain: '{count} correos preparados para el envío.',
  mailTitle: 'Correo para {recipient}',
  headers: 'Cabeceras y estado',
  from: 'De',
  to: 'Para',
  subject: 'Asunto',
  messageId: 'Message-ID',
  stage: 'Correo',
  language: 'Idioma',
  status: 'Estado',
  attempts: 'Intentos',
  created: 'En cola desde',
  sent: 'Enviado el',
  nextAttempt: 'Próximo intento',
  lastAnswer: 'Última respuesta del servidor de correo',
  campaign: 'Campaña',
  textPart: 'Texto',
  htmlPart: 'HTML',
  openHtml: 'Abrir la versión HTML',
  notRenderable: 'Este correo no se puede mostrar: {reason}',
  retryOne: 'Volver a enviar este correo',
  backToOutbox: 'Volver al correo',
  stageNames: {
    campaign_invitation: 'Invitación',
    campaign_reminder: 'Recordatorio',
    confirmation_admin: 'Confirmación a los administradores de la campaña',
    confirmation_member: 'Confirmación al participante',
    closing_notification: 'Campaña cerrada',
    campaign_reportdelivery: 'Entrega del informe',
    user_invitation: 'Invitación como usuario',
  },
};

const frFR: MailStrings = {
  retryFailedOne: 'Renvoyer 1 e-mail en échec',
  sendCapturedOne: 'Envoyer 1 e-mail retenu',
  queuedAgainOne: '1 e-mail prêt à être envoyé.',
  nav: 'E-mails',
  title: 'E-mails',
  titleCampaign: 'E-mails de {campaign}',
  allCampaigns: 'Toutes les campagnes',
  statusNames: {
    all: 'Tous',
    queued: 'En attente',
    sending: 'En cours d’envoi',
    sent: 'Envoyés',
    failed: 'En échec',
    captured: 'Retenus',
  },
  filterBy: 'Afficher les e-mails',
  caption: 'E-mails, les plus récents d’abord',
  colRecipient: 'Destinataire',
  colStage: 'E-mail',
  colStatus: 'État',
  colCreated: 'En attente depuis',
  colAnswer: 'Dernière réponse du serveur de messagerie',
  none: 'Aucun e-mail ici.',
  older: 'E-mails plus anciens',
  newest: 'E-mails les plus récents',
  retryFailed: 'E-mails en échec',
  retryFailedCount: 'Renvoyer {count} e-mails en échec',
  sendCaptured: 'E-mails retenus',
  sendCapturedCount: 'Envoyer {count} e-mails retenus',
  capturedHint:
    'Les e-mails retenus ont été gardés parce qu’aucun serveur de messagerie (SMTP_URL) n’était configuré au moment de l’envoi.',
  capturedNoSmtp: 'Configurez SMTP_URL et redémarrez Assay pour envoyer les e-mails retenus.',
  queuedAgain: '{count} e-mails prêts à être envoyés.',
  mailTitle: 'E-mail à {recipient}',
  headers: 'En-têtes et état',
  from: 'De',
  to: 'À',
  subject: 'Objet',
  messageId: 'Message-ID',
  stage: 'E-mail',
  language: 'Langue',
  status: 'État',
  attempts: 'Tentatives',
  created: 'En attente depuis',
  sent: 'Envoyé le',
  nextAttempt: 'Prochaine tentative',
  lastAnswer: 'Dernière réponse du serveur de messagerie',
  campaign: 'Campagne',
  textPart: 'Texte',
  htmlPart: 'HTML',
  openHtml: 'Ouvrir la version HTML',
  notRenderable: 'Cet e-mail ne peut pas être affiché : {reason}',
  retryOne: 'Renvoyer cet e-mail',
  backToOutbox: 'Retour aux e-mails',
  stageNames: {
    campaign_invitation: 'Invitation',
    campaign_reminder: 'Relance',
    confirmation_admin: 'Confirmation aux administrateurs de la campagne',
    confirmation_member: 'Confirmation au participant',
    closing_notification: 'Campagne clôturée',
    campaign_reportdelivery: 'Envoi du rapport',
    user_invitation: 'Invitation à devenir utilisateur',
  },
};

const BY_LANGUAGE: Readonly<Record<Language, MailStrings>> = { enUS, nlNL, esES, frFR };

export const mailStrings = (language: Language): MailStrings => BY_LANGUAGE[language];
