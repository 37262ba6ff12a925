import type { Language } from '../variants/variant.types.js';

/** The words of a campaign's activity timeline (console/views/activity.view.ts), in four languages. */
export interface ActivityStrings {
  readonly heading: string;
  readonly none: string;
  readonly created: string;
  /** "Created by {name}" */
  readonly createdBy: string;
  readonly memberAdded: string;
  /** "{count} members added" */
  readonly membersAdded: string;
  readonly invitationQueued: string;
  /** "{count} invitations queued" */
  readonly invitationsQueued: string;
  readonly reminderQueued: string;
  /** "{count} reminders queued" */
  readonly remindersQueued: string;
  /** "{count} mails queued: {stage}" */
  readonly mailsQueued: string;
  readonly closed: string;
  readonly ends: string;
  readonly ended: string;
  /** "Showing the latest {count} events." */
  readonly latest: string;
}

const enUS: ActivityStrings = {
  heading: 'Activity',
  none: 'Nothing has happened to this campaign yet.',
  created: 'Campaign created',
  createdBy: 'Campaign created by {name}',
  memberAdded: '1 member added',
  membersAdded: '{count} members added',
  invitationQueued: '1 invitation queued',
  invitationsQueued: '{count} invitations queued',
  reminderQueued: '1 reminder queued',
  remindersQueued: '{count} reminders queued',
  mailsQueued: '{count} mails queued: {stage}',
  closed: 'Campaign closed; the closing notice was queued',
  ends: 'The campaign ends',
  ended: 'The campaign ended',
  latest: 'The latest {count} events, newest first.',
};

const nlNL: ActivityStrings = {
  heading: 'Activiteit',
  none: 'Er is nog niets met deze campagne gebeurd.',
  created: 'Campagne aangemaakt',
  createdBy: 'Campagne aangemaakt door {name}',
  memberAdded: '1 deelnemer toegevoegd',
  membersAdded: '{count} deelnemers toegevoegd',
  invitationQueued: '1 uitnodiging klaargezet',
  invitationsQueued: '{count} uitnodigingen klaargezet',
  reminderQueued: '1 herinnering klaargezet',
  remindersQueued: '{count} herinneringen klaargezet',
  mailsQueued: '{count} e-mails klaargezet: {stage}',
  closed: 'Campagne gesloten; het sluitingsbericht is klaargezet',
  ends: 'De campagne eindigt',
  ended: 'De campagne is geëindigd',
  latest: 'De laatste {count} gebeurtenissen, nieuwste eerst.',
};

const esES: ActivityStrings = {
  heading: 'Actividad',
  none: 'Todavía no ha ocurrido nada en esta campaña.',
  created: 'Campaña creada',
  createdBy: 'Campaña creada por {name}',
  memberAdded: '1 participante añadido',
  membersAdded: '{count} participantes añadidos',
  invitationQueued: '1 invitación en cola',
  invitationsQueued: '{count} invitaciones en cola',
  reminderQueued: '1 recordatorio en cola',
  remindersQueued: '{count} recordatorios en cola',
  mailsQueued: '{count} correos en cola: {stage}',
  closed: 'Campaña cerrada; el aviso de cierre se puso en cola',
  ends: 'La campaña termina',
  ended: 'La campaña terminó',
  latest: 'Los últimos {count} eventos, del más reciente al más antiguo.',
};

const frFR: ActivityStrings = {
  heading: 'Activité',
  none: 'Il ne s’est encore rien passé pour cette campagne.',
  created: 'Campagne créée',
  createdBy: 'Campagne créée par {name}',
  memberAdded: '1 participant ajouté',
  membersAdded: '{count} participants ajoutés',
  invitationQueued: '1 invitation mise en file d’attente',
  invitationsQueued: '{count} invitations mises en file d’attente',
  reminderQueued: '1 relance mise en file d’attente',
  remindersQueued: '{count} relances mises en file d’attente',
  mailsQueued: '{count} courriels mis en file d’attente : {stage}',
  closed: 'Campagne clôturée ; l’avis de clôture a été mis en file d’attente',
  ends: 'La campagne se termine',
  ended: 'La campagne s’est terminée',
  latest: 'Les {count} derniers événements, du plus récent au plus ancien.',
};

const STRINGS: Readonly<Record<Language, ActivityStrings>> = { enUS, nlNL, esES, frFR };

export const activityStrings = (language: Language): ActivityStrings => STRINGS[language];
