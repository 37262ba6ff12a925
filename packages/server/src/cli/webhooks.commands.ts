import { WEBHOOK_EVENTS, type Webhook, type WebhookDelivery } from '@assay/schema';
import { cliActor } from '../audit/actor.js';
import { findUserByEmail } from '../auth/auth.repository.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import { type Command, command, UsageError } from './command.js';

/**
 * `assay webhooks ...`: the same services as /api/v1/webhooks, so a rule lives once. Messages
 * queued here (`test`) are delivered by a running server's worker.
 */

const deps = (db: Db, config: Config): webhooks.WebhookDeps => ({
  db: db.kysely,
  config,
  clock: () => new Date(),
  mailQueued: () => {},
});

const json = { type: 'boolean', description: 'print the answer as JSON' } as const;
const idArg = (verb: string) => ({
  name: 'ID',
  missing: `webhooks ${verb} needs the subscription id: assay webhooks list shows them`,
  description: 'the subscription id, from `webhooks list`',
});

/** `--events "a b"` or `--events a,b`. */
function eventList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

function enabledOf(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  throw new UsageError('--enabled must be true or false');
}

export function webhookLines(hook: Webhook): string[] {
  return [
    `${hook.webhookid}  ${hook.enabled ? 'enabled' : 'disabled'}  ${hook.url}`,
    `  events: ${hook.events.join(' ')}`,
    ...(hook.description ? [`  description: ${hook.description.replace(/\n/g, ' ')}`] : []),
    ...(hook.disabledreason ? [`  disabled: ${hook.disabledreason}`] : []),
    ...(hook.failingsince ? [`  failing since ${hook.failingsince}`] : []),
  ];
}

export function deliveryLine(delivery: WebhookDelivery): string {
  const outcome =
    delivery.httpstatus === null ? (delivery.error ?? 'no answer') : `HTTP ${delivery.httpstatus}`;
  return [
    delivery.at,
    delivery.messageid,
    delivery.event,
    `attempt ${delivery.attempt}`,
    outcome,
    `${delivery.durationms} ms`,
    delivery.messagestatus,
  ].join('  ');
}

const secretLines = (hook: Webhook & { secret: string }, what: string) => [
  ...webhookLines(hook),
  `${what}: ${hook.secret}`,
  'It is shown this once: keep it where the receiver verifies signatures.',
];

export const WEBHOOK_COMMANDS: readonly Command[] = [
  command({
    name: 'webhooks create',
    summary: 'subscribe a URL to events; prints the signing secret once',
    details: [
      `Events: ${WEBHOOK_EVENTS.join(', ')}.`,
      'The URL must be https on a public address unless ASSAY_WEBHOOK_ALLOW_HTTP=1 or',
      'ASSAY_WEBHOOK_ALLOW_PRIVATE=1 allow otherwise (docs/webhooks.md).',
    ],
    options: {
      url: { type: 'string', value: 'URL', required: true, description: 'where the events are POSTed' },
      events: {
        type: 'string',
        value: '"E1 E2"',
        required: true,
        description: 'the events, separated by spaces or commas',
      },
      description: { type: 'string', value: 'T', description: 'a note for whoever reads the list' },
      owner: {
        type: 'string',
        value: 'E',
        description: 'the user (e-mail) told when it is disabled for failing; none by default',
      },
      json,
    },
    migrate: true,
    async run({ db, config, values, print, json: printJson }) {
      let userId: string | null = null;
      if (values.owner !== undefined) {
        const user = await findUserByEmail(db.kysely, values.owner);
        if (!user) throw new BusinessError(`owner: no user ${values.owner}`);
        userId = user.id;
      }
      const hook = await webhooks.createWebhook(
        deps(db, config),
        cliActor(),
        { url: values.url, events: eventList(values.events), description: values.description },
        userId,
      );
      if (values.json) printJson(hook);
      else for (const line of secretLines(hook, 'secret')) print(line);
    },
  }),
  command({
    name: 'webhooks list',
    summary: 'every subscription (no secrets)',
    options: { json },
    migrate: true,
    async run({ db, config, values, print, json: printJson }) {
      const list = await webhooks.listWebhooks(deps(db, config));
      if (values.json) printJson(list);
      else if (list.length === 0) print('no webhook subscriptions');
      else for (const hook of list) for (const line of webhookLines(hook)) print(line);
    },
  }),
  command({
    name: 'webhooks show',
    summary: 'one subscription (no secret)',
    args: [idArg('show')],
    options: { json },
    migrate: true,
    async run({ db, config, args: [id], values, print, json: printJson }) {
      const hook = await webhooks.getWebhook(deps(db, config), id as string);
      if (values.json) printJson(hook);
      else for (const line of webhookLines(hook)) print(line);
    },
  }),
  command({
    name: 'webhooks update',
    summary: 'change the URL, events, description, or enable or disable it',
    args: [idArg('update')],
    options: {
      url: { type: 'string', value: 'URL', description: 'the new URL (checked as at create)' },
      events: { type: 'string', value: '"E1 E2"', description: 'the new events' },
      description: { type: 'string', value: 'T', description: 'the new description ("" clears it)' },
      enabled: {
        type: 'string',
        value: 'true|false',
        description: 'enable (clears the failing streak) or disable',
      },
      json,
    },
    migrate: true,
    async run({ db, config, args: [id], values, print, json: printJson }) {
      const patch: webhooks.WebhookChange = {};
      if (values.url !== undefined) patch.url = values.url;
      if (values.events !== undefined) patch.events = eventList(values.events);
      if (values.description !== undefined) patch.description = values.description;
      const enabled = enabledOf(values.enabled);
      if (enabled !== undefined) patch.enabled = enabled;
      if (Object.keys(patch).length === 0)
        throw new UsageError(
          'webhooks update needs at least one of --url, --events, --description, --enabled',
        );
      const hook = await webhooks.patchWebhook(deps(db, config), id as string, patch, cliActor());
      if (values.json) printJson(hook);
      else for (const line of webhookLines(hook)) print(line);
    },
  }),
  command({
    name: 'webhooks delete',
    summary: 'delete a subscription with its queued messages and deliveries',
    args: [idArg('delete')],
    options: {},
    migrate: true,
    async run({ db, config, args: [id], print }) {
      await webhooks.deleteWebhook(deps(db, config), id as string, cliActor());
      print(`webhook ${id} deleted`);
    },
  }),
  command({
    name: 'webhooks rotate',
    summary: 'a new signing secret, printed once; the old one keeps signing for 24 hours',
    args: [idArg('rotate')],
    options: { json },
    migrate: true,
    async run({ db, config, args: [id], values, print, json: printJson }) {
      const hook = await webhooks.rotateSecret(deps(db, config), id as string, cliActor());
      if (values.json) printJson(hook);
      else for (const line of secretLines(hook, 'new secret')) print(line);
    },
  }),
  command({
    name: 'webhooks test',
    summary: 'queue a webhook.test event to the subscription (a running server delivers it)',
    args: [idArg('test')],
    options: {},
    migrate: true,
    async run({ db, config, args: [id], print }) {
      const { messageid } = await webhooks.testWebhook(deps(db, config), id as string, cliActor());
      print(
        `queued ${messageid}: a running server delivers it; assay webhooks deliveries ${id} shows the attempts`,
      );
    },
  }),
  command({
    name: 'webhooks deliveries',
    summary: "a subscription's delivery attempts, newest first (100 unless --limit)",
    args: [idArg('deliveries')],
    options: { limit: { type: 'string', value: 'N', description: 'at most this many (default 100)' }, json },
    migrate: true,
    async run({ db, config, args: [id], values, print, json: printJson }) {
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100_000)
        throw new UsageError('--limit must be a whole number from 1 to 100000');
      const list = await webhooks.listDeliveries(deps(db, config), id as string, limit);
      if (values.json) printJson(list);
      else if (list.length === 0) print('no deliveries yet');
      else for (const delivery of list) print(deliveryLine(delivery));
    },
  }),
];
