import type { ActorType, Channel } from '../audit/actor.js';
import type { AuditOutcome } from '../audit/audit.service.js';
import type { Language } from '../variants/variant.types.js';

/** The words of the console's audit log page (console/views/audit.view.ts), in four languages. */
export interface AuditStrings {
  readonly nav: string;
  readonly title: string;
  readonly intro: string;
  readonly filters: string;
  readonly since: string;
  readonly until: string;
  readonly dateHint: string;
  readonly actor: string;
  readonly actorHint: string;
  readonly resourceType: string;
  readonly resourceTypeHint: string;
  readonly resourceId: string;
  readonly apply: string;
  readonly clear: string;
  readonly caption: string;
  readonly colWhen: string;
  readonly colWho: string;
  readonly colThrough: string;
  readonly colWhat: string;
  readonly colAction: string;
  readonly colFields: string;
  readonly colOutcome: string;
  readonly none: string;
  readonly noMatches: string;
  readonly older: string;
  readonly newest: string;
  /** Who acted, by kind: `{id}` is the actor's id (a user's is their e-mail address). */
  readonly actors: Readonly<Record<ActorType, string>>;
  /** "{actor} for {owner}": a client or key and the user it acts for. */
  readonly actingFor: string;
  readonly channels: Readonly<Record<Channel, string>>;
  readonly outcomes: Readonly<Record<AuditOutcome, string>>;
}

const enUS: AuditStrings = {
  nav: 'Audit log',
  title: 'Audit log',
  intro:
    'Every change made through the API, the console, the command line, the questionnaire pages and the scheduler: who made it, when, through which door, and the names of the fields it changed. Values are never recorded.',
  filters: 'Filter the audit log',
  since: 'From',
  until: 'To',
  dateHint: 'A date, for example 2026-11-25',
  actor: 'Who',
  actorHint: 'The id of a user, client, API key or participant',
  resourceType: 'Kind of thing',
  resourceTypeHint: 'For example member, campaign or user',
  resourceId: 'Id of the thing',
  apply: 'Apply filters',
  clear: 'Clear filters',
  caption: 'Audit log, newest first',
  colWhen: 'When',
  colWho: 'Who',
  colThrough: 'Through',
  colWhat: 'What',
  colAction: 'Action',
  colFields: 'Fields',
  colOutcome: 'Outcome',
  none: 'Nothing has been recorded yet.',
  noMatches: 'No entries match these filters.',
  older: 'Older entries',
  newest: 'Newest entries',
  actors: {
    user: '{id}',
    client: 'Client {id}',
    apikey: 'API key {id}',
    member: 'Participant {id}',
    cli: 'Command line ({id})',
    system: 'Scheduler',
    anonymous: 'Anonymous visitor',
  },
  actingFor: '{actor} for {owner}',
  channels: {
    api: 'API',
    console: 'Console',
    cli: 'Command line',
    participant: 'Questionnaire pages',
    scheduler: 'Scheduler',
    oauth: 'OAuth',
  },
  outcomes: { succeeded: 'Done', denied: 'Refused: not allowed', failed: 'Refused: not valid' },
};

const nlNL: AuditStrings = {
  nav: 'Auditlogboek',
  title: 'Auditlogboek',
  intro:
    'Elke wijziging via de API, de console, de opdrachtregel, de vragenlijstpagina’s en de planner: wie ze deed, wanneer, via welke weg en de namen van de gewijzigde velden. Waarden worden nooit vastgelegd.',
  filters: 'Het auditlogboek filteren',
  since: 'Vanaf',
  until: 'Tot en met',
  dateHint: 'Een datum, bijvoorbeeld 2026-11-25',
  actor: 'Wie',
  actorHint: 'Het id van een gebruiker, client, API-sleutel of deelnemer',
  resourceType: 'Soort',
  resourceTypeHint: 'Bijvoorbeeld member, campaign of user',
  resourceId: 'Id',
  apply: 'Filters toepassen',
  clear: 'Filters wissen',
  caption: 'Auditlogboek, nieuwste eerst',
  colWhen: 'Wanneer',
  colWho: 'Wie',
  colThrough: 'Via',
  colWhat: 'Wat',
  colAction: 'Handeling',
  colFields: 'Velden',
  colOutcome: 'Resultaat',
  none: 'Er is nog niets vastgelegd.',
  noMatches: 'Geen regels voor deze filters.',
  older: 'Oudere regels',
  newest: 'Nieuwste regels',
  actors: {
    user: '{id}',
    client: 'Client {id}',
    apikey: 'API-sleutel {id}',
    member: 'Deelnemer {id}',
    cli: 'Opdrachtregel ({id})',
    system: 'Planner',
    anonymous: 'Anonieme bezoeker',
  },
  actingFor: '{actor} namens {owner}',
  channels: {
    api: 'API',
    console: 'Console',
    cli: 'Opdrachtregel',
    participant: 'Vragenlijstpagina’s',
    scheduler: 'Planner',
    oauth: 'OAuth',
  },
  outcomes: { succeeded: 'Gedaan', denied: 'Geweigerd: niet toegestaan', failed: 'Geweigerd: ongeldig' },
};

const esES: AuditStrings = {
  nav: 'Registro de auditoría',
  title: 'Registro de auditoría',
  intro:
    'Cada cambio hecho por la API, la consola, la línea de comandos, las páginas del cuestionario y el planificador: quién lo hizo, cuándo, por qué vía y los nombres de los campos que cambió. Los valores nunca se registran.',
  filters: 'Filtrar el registro de auditoría',
  since: 'Desde',
  until: 'Hasta',
  dateHint: 'Una fecha, por ejemplo 2026-11-25',
  actor: 'Quién',
  actorHint: 'El id de un usuario, cliente, clave de API o participante',
  resourceType: 'Tipo',
  resourceTypeHint: 'Por ejemplo member, campaign o user',
  resourceId: 'Id',
  apply: 'Aplicar filtros',
  clear: 'Quitar filtros',
  caption: 'Registro de auditoría, lo más reciente primero',
  colWhen: 'Cuándo',
  colWho: 'Quién',
  colThrough: 'Vía',
  colWhat: 'Qué',
  colAction: 'Acción',
  colFields: 'Campos',
  colOutcome: 'Resultado',
  none: 'Todavía no hay nada registrado.',
  noMatches: 'Ninguna entrada coincide con estos filtros.',
  older: 'Entradas anteriores',
  newest: 'Entradas más recientes',
  actors: {
    user: '{id}',
    client: 'Cliente {id}',
    apikey: 'Clave de API {id}',
    member: 'Participante {id}',
    cli: 'Línea de comandos ({id})',
    system: 'Planificador',
    anonymous: 'Visitante anónimo',
  },
  actingFor: '{actor} en nombre de {owner}',
  channels: {
    api: 'API',
    console: 'Consola',
    cli: 'Línea de comandos',
    participant: 'Páginas del cuestionario',
    scheduler: 'Planificador',
    oauth: 'OAuth',
  },
  outcomes: { succeeded: 'Hecho', denied: 'Rechazado: no permitido', failed: 'Rechazado: no válido' },
};

const frFR: AuditStrings = {
  nav: 'Journal d’audit',
  title: 'Journal d’audit',
  intro:
    'Chaque modification faite par l’API, la console, la ligne de commande, les pages du questionnaire et le planificateur : qui l’a faite, quand, par quelle voie, et les noms des champs modifiés. Les valeurs ne sont jamais enregistrées.',
  filters: 'Filtrer le journal d’audit',
  since: 'Du',
  until: 'Au',
  dateHint: 'Une date, par exemple 2026-11-25',
  actor: 'Qui',
  actorHint: 'L’identifiant d’un utilisateur, d’un client, d’une clé d’API ou d’un participant',
  resourceType: 'Type',
  resourceTypeHint: 'Par exemple member, campaign ou user',
  resourceId: 'Identifiant',
  apply: 'Appliquer les filtres',
  clear: 'Effacer les filtres',
  caption: 'Journal d’audit, du plus récent au plus ancien',
  colWhen: 'Quand',
  colWho: 'Qui',
  colThrough: 'Par',
  colWhat: 'Quoi',
  colAction: 'Action',
  colFields: 'Champs',
  colOutcome: 'Résultat',
  none: 'Rien n’a encore été enregistré.',
  noMatches: 'Aucune entrée ne correspond à ces filtres.',
  older: 'Entrées plus anciennes',
  newest: 'Entrées les plus récentes',
  actors: {
    user: '{id}',
    client: 'Client {id}',
    apikey: 'Clé d’API {id}',
    member: 'Participant {id}',
    cli: 'Ligne de commande ({id})',
    system: 'Planificateur',
    anonymous: 'Visiteur anonyme',
  },
  actingFor: '{actor} pour {owner}',
  channels: {
    api: 'API',
    console: 'Console',
    cli: 'Ligne de commande',
    participant: 'Pages du questionnaire',
    scheduler: 'Planificateur',
    oauth: 'OAuth',
  },
  outcomes: { succeeded: 'Fait', denied: 'Refusé : non autorisé', failed: 'Refusé : non valide' },
};

const BY_LANGUAGE: Readonly<Record<Language, AuditStrings>> = { enUS, nlNL, esES, frFR };

export const auditStrings = (language: Language): AuditStrings => BY_LANGUAGE[language];
