import { DEFAULT_BRAND_COLOR, MIN_PASSWORD_LENGTH } from '../auth/user-rules.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import type { Db } from '../db/database.js';
import { loadInstanceVariants } from '../variants/load-variants.js';
import { AUDIT_COMMANDS } from './audit.commands.js';
import * as campaigns from './campaigns.commands.js';
import { type Command, type CommandContext, command, type OptionSpec, UsageError } from './command.js';
import * as commands from './commands.js';
import { runDemo } from './demo.commands.js';
import { exportCampaignFile } from './export.commands.js';
import * as keys from './keys.commands.js';
import * as mail from './mail.commands.js';
import * as memberData from './member-data.commands.js';
import * as members from './members.commands.js';
import * as users from './users.commands.js';
import { WEBHOOK_COMMANDS } from './webhooks.commands.js';

/**
 * Every `assay` command: its name, one line for `assay --help`, its arguments and options with
 * their types and descriptions, and what it does. Parsing, the per-command check of options and
 * both kinds of help are made from this table (run-cli.ts); a command takes the options declared
 * here and the global ones, nothing else.
 */

/** Options every command takes. */
export const GLOBAL_OPTIONS = {
  data: {
    type: 'string',
    value: 'DIR',
    description: 'the data folder of the embedded SQLite database (or ASSAY_DATA_DIR; default ./data)',
  },
  'database-url': {
    type: 'string',
    value: 'URL',
    description: 'a PostgreSQL database instead of SQLite (or DATABASE_URL)',
  },
  port: {
    type: 'string',
    value: 'N',
    description:
      'the port serve and start listen on (or PORT; default 8080); links in mail follow it unless ASSAY_PUBLIC_URL is set',
  },
  host: {
    type: 'string',
    value: 'H',
    description: 'the address serve and start listen on (or HOST; default 0.0.0.0)',
  },
  help: { type: 'boolean', short: 'h', description: 'describe the command (or, alone, every command)' },
  version: { type: 'boolean', short: 'v', description: 'print the version of Assay' },
} as const satisfies Record<string, OptionSpec>;

const json = { type: 'boolean', description: 'print the answer as JSON' } as const;

/** What the campaign commands need, outside a server: nothing is woken, the clock is real. */
const campaignDeps = (db: Db, config: Config) => ({
  db: db.kysely,
  dialect: db.dialect,
  variants: loadInstanceVariants(config),
  config,
  clock: () => new Date(),
  mailQueued: () => {},
  campaignsDue: () => {},
});

/** `start` and `serve`: listening and shutting down belong to the process (main.ts). */
const serving =
  (setupFirst: boolean) =>
  async ({ db, config, io }: Pick<CommandContext<unknown>, 'db' | 'config' | 'io'>) => {
    if (!io.serve) throw new Error('serving needs the assay process');
    await io.serve(db, config, setupFirst);
  };

const userFields = {
  'agency-name': {
    type: 'string',
    value: 'N',
    description: 'the agency name on their reports: one line, at most 255 characters; "" clears it',
  },
  'agency-footer': {
    type: 'string',
    value: 'T',
    description: 'the footer of their reports: at most 1000 characters, may span lines; "" clears it',
  },
  color: {
    type: 'string',
    value: 'C',
    description: `the colour of their reports: #rgb or #rrggbb (default ${DEFAULT_BRAND_COLOR})`,
  },
} as const satisfies Record<string, OptionSpec>;

export const COMMANDS: readonly Command[] = [
  command({
    name: 'start',
    summary: 'set up (migrations, signing keys) and serve; what `npm start` runs',
    details: [
      'Runs setup, then serves. On the very first start of an empty instance it creates the admin user',
      'and an OAuth client with every scope, and prints the client id and secret once.',
    ],
    options: {},
    migrate: false,
    ownsDatabase: true,
    run: serving(true),
  }),
  command({
    name: 'serve',
    summary: 'serve the platform (runs pending migrations first)',
    options: {},
    migrate: false,
    ownsDatabase: true,
    run: serving(false),
  }),
  command({
    name: 'setup',
    summary: 'create or upgrade the database, the admin user and a signing key pair',
    options: { 'no-keys': { type: 'boolean', description: 'make no signing key pair' } },
    migrate: false,
    async run({ db, config, values, print }) {
      for (const line of await commands.setup(db.kysely, {
        keys: !values['no-keys'],
        adminEmail: config.adminEmail,
      }))
        print(line);
      print('setup complete');
    },
  }),
  command({
    name: 'keys generate',
    summary: 'make a new token-signing key pair',
    details: ['Until one exists, the token endpoint answers 500 `Invalid key supplied`.'],
    options: {},
    migrate: true,
    async run({ db, print }) {
      print(`signing key created: ${await commands.generateKey(db.kysely)}`);
    },
  }),
  command({
    name: 'users create',
    summary: 'a platform user; the agency name, footer and colour brand their reports',
    options: {
      email: { type: 'string', value: 'E', required: true, description: 'their e-mail address' },
      firstname: { type: 'string', value: 'F', required: true, description: 'their first name' },
      lastname: { type: 'string', value: 'L', required: true, description: 'their last name' },
      admin: { type: 'boolean', description: 'give them the admin role' },
      password: {
        type: 'string',
        value: 'P',
        description: `the password they sign in with (at least ${MIN_PASSWORD_LENGTH} characters)`,
      },
      ...userFields,
      json,
    },
    migrate: true,
    async run({ db, values, print, json }) {
      const user = await users.create(db.kysely, values);
      if (values.json) json(user);
      else print(`user created: ${user.id} ${user.email} (${user.role})`);
    },
  }),
  command({
    name: 'users update',
    summary: 'change only the given fields of a platform user',
    details: [
      'A bad value is refused with one line naming its flag, and nothing is changed.',
      'The only admin cannot be given --no-admin.',
    ],
    options: {
      email: { type: 'string', value: 'E', required: true, description: 'the user, by e-mail address' },
      firstname: { type: 'string', value: 'F', description: 'a new first name' },
      lastname: { type: 'string', value: 'L', description: 'a new last name' },
      ...userFields,
      admin: { type: 'boolean', description: 'give them the admin role' },
      'no-admin': { type: 'boolean', description: 'take the admin role away' },
      json,
    },
    refused: { password: 'users update does not set passwords: use `assay users password`' },
    migrate: true,
    async run({ db, values, print, json }) {
      if (values.admin && values['no-admin']) throw new UsageError('give --admin or --no-admin, not both');
      const change = users.changeFromFlags(values);
      if (Object.keys(change).length === 0) {
        throw new UsageError(
          'users update needs a field to change: --firstname, --lastname, --agency-name, --agency-footer, --color, --admin or --no-admin',
        );
      }
      const user = await users.update(db.kysely, values.email, change);
      if (values.json) json(user);
      else print(`user updated: ${user.id} ${user.email} (${user.role})`);
    },
  }),
  command({
    name: 'users list',
    summary: 'the platform users: id, e-mail, role, name, agency name; deactivated and invited ones as such',
    options: { json },
    migrate: true,
    async run({ db, values, print, json }) {
      const list = await users.list(db.kysely);
      // Each as `users create` prints it (with `status`); the lines also say since or until when.
      if (values.json) json(list.map(({ deactivated: _since, invitation: _open, ...user }) => user));
      else for (const line of users.listLines(list)) print(line);
    },
  }),
  command({
    name: 'users deactivate',
    summary:
      'stop a platform user: no sign-in, their console sessions end, their tokens and API keys are refused',
    details: [
      'The same as "Deactivate" on the user\'s page in the console. The only active admin cannot be deactivated.',
    ],
    options: {
      email: { type: 'string', value: 'E', required: true, description: 'the user, by e-mail address' },
      json,
    },
    migrate: true,
    async run({ db, values, print, json }) {
      const { user, before } = await users.deactivate(db.kysely, values.email);
      if (values.json) json(user);
      else print(`${before ? 'user already deactivated' : 'user deactivated'}: ${user.id} ${user.email}`);
    },
  }),
  command({
    name: 'users reactivate',
    summary: 'let a deactivated user sign in again (tokens issued before stay refused)',
    options: {
      email: { type: 'string', value: 'E', required: true, description: 'the user, by e-mail address' },
      json,
    },
    migrate: true,
    async run({ db, values, print, json }) {
      const { user, before } = await users.reactivate(db.kysely, values.email);
      if (values.json) json(user);
      else print(`${before ? 'user already active' : 'user reactivated'}: ${user.id} ${user.email}`);
    },
  }),
  command({
    name: 'users password',
    summary: 'the password a user signs in with (the console and the Authorization Code flow)',
    options: {
      email: { type: 'string', value: 'E', required: true, description: 'the user, by e-mail address' },
      password: {
        type: 'string',
        value: 'P',
        required: true,
        description: `the new password (at least ${MIN_PASSWORD_LENGTH} characters)`,
      },
    },
    migrate: true,
    async run({ db, values, print }) {
      await commands.setPassword(db.kysely, values.email, values.password);
      print('password set');
    },
  }),
  command({
    name: 'users sign-in-link',
    summary: 'a one-time link into the console for a user (works once, for 24 hours)',
    options: {
      email: {
        type: 'string',
        value: 'E',
        description: 'the user, by e-mail address (default: the first admin)',
      },
    },
    migrate: true,
    async run({ db, values, print, config }) {
      const link = await commands.signInLink(db.kysely, config.publicUrl, values.email);
      print(`One-time sign-in link for ${link.email} (works once, for 24 hours):`);
      print(link.url);
    },
  }),
  command({
    name: 'clients create',
    summary: 'an OAuth client; prints its id and secret (shown once)',
    options: {
      name: { type: 'string', value: 'N', required: true, description: 'a name to know it by' },
      scopes: {
        type: 'string',
        value: '"members groups ..."',
        required: true,
        description: 'the scopes it may ask for',
      },
      user: {
        type: 'string',
        value: 'E',
        description: 'the user it acts as, by e-mail address (default: the first admin)',
      },
      'redirect-uri': {
        type: 'string',
        multiple: true,
        value: 'U',
        description: 'a return address for the Authorization Code flow (may be given several times)',
      },
      json: { type: 'boolean', description: 'print {"client_id","client_secret","scopes"}' },
    },
    migrate: true,
    async run({ db, values, print, json }) {
      const client = await commands.addClient(db.kysely, {
        name: values.name,
        scopes: values.scopes,
        user: values.user,
        redirectUris: values['redirect-uri'],
      });
      if (values.json) json(client);
      else
        print(
          `client_id: ${client.client_id}\nclient_secret: ${client.client_secret} (shown once)\nscopes: ${client.scopes}`,
        );
    },
  }),
  command({
    name: 'clients update',
    summary: 'a new secret (and scopes): the old secret and its tokens stop working',
    args: [{ name: 'ID', missing: 'clients update needs the client id', description: 'the client id' }],
    options: {
      scopes: { type: 'string', value: '"..."', description: 'new scopes (default: the same)' },
      json,
    },
    migrate: true,
    async run({ db, args: [id], values, print, json }) {
      const client = await commands.changeClient(db.kysely, id as string, values.scopes);
      if (values.json) json(client);
      else
        print(
          `client_id: ${client.client_id}\nclient_secret: ${client.client_secret} (new; the old one no longer works)\nscopes: ${client.scopes}`,
        );
    },
  }),
  command({
    name: 'clients list',
    summary: 'the OAuth clients, without secrets',
    options: { json },
    migrate: true,
    async run({ db, values, print, json }) {
      const list = await commands.clients(db.kysely);
      if (values.json) json(list);
      else
        for (const client of list)
          print(
            `${client.client_id}  ${client.name}  [${client.scopes}]${client.registration ? `  (registered, ${client.registration})` : ''}`,
          );
    },
  }),
  command({
    name: 'clients delete',
    summary: 'delete a client: its secret and its tokens stop working, in running servers too',
    args: [{ name: 'ID', missing: 'clients delete needs the client id', description: 'the client id' }],
    options: {},
    migrate: true,
    async run({ db, args: [id], print }) {
      for (const line of await keys.removeClient(db.kysely, id as string)) print(line);
    },
  }),
  command({
    name: 'apikeys create',
    summary: 'a read-only API key for the X-API-Key header (shown once)',
    options: {
      scopes: {
        type: 'string',
        value: '"members groups ..."',
        required: true,
        description: 'the scopes it grants',
      },
      user: {
        type: 'string',
        value: 'E',
        description: 'the user it acts as, by e-mail address (default: the first admin)',
      },
      name: { type: 'string', value: 'N', description: 'a name to know it by in `apikeys list`' },
      json: { type: 'boolean', description: 'print {"apikey"}' },
    },
    migrate: true,
    async run({ db, values, print, json }) {
      const key = await commands.addApiKey(db.kysely, {
        scopes: values.scopes,
        user: values.user,
        name: values.name,
      });
      if (values.json) json(key);
      else print(`apikey: ${key.apikey} (shown once; read-only)`);
    },
  }),
  command({
    name: 'apikeys list',
    summary: 'the API keys (never the keys themselves): id, name, scopes, owner, created',
    options: { json },
    migrate: true,
    async run({ db, values, print, json }) {
      const list = await keys.apiKeys(db.kysely);
      if (values.json) json(list);
      else for (const line of keys.apiKeyLines(list)) print(line);
    },
  }),
  command({
    name: 'apikeys revoke',
    summary: 'revoke a key: it is refused from the next call on, by running servers too',
    args: [
      {
        name: 'ID',
        missing: 'apikeys revoke needs the key id: assay apikeys list shows them',
        description: 'the key id, from `apikeys list`',
      },
    ],
    options: {},
    migrate: true,
    async run({ db, args: [id], print }) {
      print(await keys.revoke(db.kysely, id as string));
    },
  }),
  command({
    name: 'members import',
    summary: 'members from a CSV or JSON file, by the rules of POST /members/import',
    details: [
      'CSV: a header row of field names (extra.<name> for custom fields). JSON: an array of members,',
      'or the body of POST /members/import. Told apart by the extension, else by the content.',
      'Prints created, updated and refused rows (row 1 is the first member); exit code 1 when a',
      'row was refused (the other rows are kept). A progress bar is drawn when stderr is a terminal.',
    ],
    args: [
      {
        name: 'FILE',
        missing: 'members import needs the file to import',
        description: 'the CSV or JSON file',
      },
    ],
    options: {
      group: { type: 'string', value: 'ID', description: 'put the new members in this group' },
      update: { type: 'boolean', description: 'change the members whose e-mail exists' },
      json: { type: 'boolean', description: 'print the whole result {"created","updated","errors"}' },
    },
    migrate: true,
    async run({ db, args: [file], values, io, print, json, exitCode }) {
      const at = file as string;
      const read = members.readMembersFile(at);
      const bar = io.terminal ? members.progressBar(io.terminal, 'importing') : undefined;
      let result: Awaited<ReturnType<typeof members.importRows>>;
      try {
        result = await members.importRows(db.kysely, read.members, {
          groupid: values.group ?? read.groupid,
          groupSource: values.group === undefined ? `${at}: groupid` : '--group',
          update: values.update ?? read.update,
          progress: bar?.update,
        });
      } finally {
        bar?.end();
      }
      if (values.json) json(result);
      else for (const line of members.summaryLines(at, result)) print(line);
      if (result.errors.length > 0) exitCode(1);
    },
  }),
  command({
    name: 'members export-data',
    summary: 'everything held about a person as one JSON document (GDPR art. 15)',
    details: [
      'The member (by id, or by e-mail address), their group, campaign places with their answers,',
      'personal reports with their scores, the mails sent to them or about them (dates, subjects),',
      'the webhook events and audit entries about them: the shape assay-member-data/1 (docs/privacy.md).',
    ],
    args: [
      {
        name: 'ID|EMAIL',
        missing: 'members export-data needs the member id or e-mail address',
        description: 'the member, by id or e-mail address',
      },
    ],
    options: {
      out: {
        type: 'string',
        value: 'FILE',
        description: 'write it to this file (readable by its owner only)',
      },
    },
    migrate: true,
    async run({ db, config, args: [member], values, io, print }) {
      const result = await memberData.exportData(
        db,
        loadInstanceVariants(config),
        member as string,
        values.out,
      );
      if (result.file === undefined) io.stdout(result.text);
      else print(`wrote the data of the member to ${result.file}`);
    },
  }),
  command({
    name: 'members erase',
    summary: 'erase a member and everything that names them (GDPR art. 17), as DELETE /members/{id}',
    details: [
      'Their record, campaign places, answers, personal reports, the mails to or about them and the',
      'console copies holding their address go, in one transaction; nothing left names them',
      '(docs/privacy.md). It cannot be undone: without --yes nothing is erased.',
    ],
    args: [
      {
        name: 'ID|EMAIL',
        missing: 'members erase needs the member id or e-mail address',
        description: 'the member, by id or e-mail address',
      },
    ],
    options: {
      yes: { type: 'boolean', description: 'confirm the erasure' },
    },
    migrate: true,
    async run({ db, args: [member], values, print }) {
      print(await memberData.erase(db, member as string, values.yes === true));
    },
  }),
  command({
    name: 'mail list',
    summary: 'the outbox, newest first (100 unless --limit)',
    options: {
      campaign: { type: 'string', value: 'ID', description: "only this campaign's mail" },
      status: {
        type: 'string',
        value: 'S',
        description: 'only mail in this state: queued, sending, sent, failed or captured',
      },
      limit: { type: 'string', value: 'N', description: 'at most this many (default 100)' },
      json,
    },
    migrate: true,
    async run({ db, values, print, json }) {
      const list = await mail.mailList(db.kysely, {
        campaign: values.campaign,
        status: values.status,
        limit: values.limit,
      });
      if (values.json) json(list);
      else for (const line of mail.mailListLines(list)) print(line);
    },
  }),
  command({
    name: 'mail show',
    summary: "one mail: its headers, state, the server's last answer, its text",
    args: [{ name: 'ID', missing: 'mail show needs the mail id', description: 'the mail id' }],
    options: {},
    migrate: true,
    async run({ db, config, args: [id], print }) {
      const options = { variants: loadInstanceVariants(config), mailFrom: config.mailFrom };
      for (const line of await mail.mailShow(db.kysely, id as string, options)) print(line);
    },
  }),
  command({
    name: 'mail retry',
    summary: 'queue a failed or captured mail again, or every failed (--failed) or captured (--captured) one',
    args: [{ name: 'ID', description: 'the mail id (or --failed, or --captured)' }],
    options: {
      failed: { type: 'boolean', description: 'every failed mail instead of one' },
      captured: {
        type: 'boolean',
        description: 'every captured mail (kept while SMTP_URL was not set), once SMTP_URL is set',
      },
    },
    migrate: true,
    async run({ db, args: [id], values, print, config }) {
      if ([Boolean(id), Boolean(values.failed), Boolean(values.captured)].filter(Boolean).length !== 1) {
        throw new UsageError('mail retry needs one of: a mail id, --failed, --captured');
      }
      if (values.captured) print(await mail.mailRetryCaptured(db.kysely, config.smtpUrl !== undefined));
      else print(id ? await mail.mailRetry(db.kysely, id) : await mail.mailRetryFailed(db.kysely));
    },
  }),
  command({
    name: 'mail preview',
    summary: 'the mail a stage of a campaign would send, for a sample member; nothing is sent',
    options: {
      campaign: { type: 'string', value: 'ID', required: true, description: 'the campaign' },
      stage: {
        type: 'string',
        value: 'S',
        required: true,
        description: 'the stage: campaign_invitation, campaign_reminder, ...',
      },
      language: {
        type: 'string',
        value: 'L',
        description: "a language the variant offers (default: the campaign's)",
      },
      html: { type: 'boolean', description: 'the HTML part instead of the text part' },
    },
    migrate: true,
    async run({ db, config, values, print }) {
      const lines = await campaigns.preview(campaignDeps(db, config), {
        campaign: values.campaign,
        stage: values.stage,
        language: values.language,
        html: Boolean(values.html),
      });
      for (const line of lines) print(line);
    },
  }),
  command({
    name: 'campaigns share',
    summary: 'give a platform user editor access to a campaign',
    args: [{ name: 'ID', missing: 'campaigns share needs the campaign id', description: 'the campaign id' }],
    options: {
      user: { type: 'string', value: 'E', required: true, description: 'the user, by e-mail address' },
    },
    migrate: true,
    async run({ db, config, args: [id], values, print }) {
      print(await campaigns.share(campaignDeps(db, config), id as string, values.user));
    },
  }),
  command({
    name: 'campaigns unshare',
    summary: 'take the access `campaigns share` gave back',
    args: [
      { name: 'ID', missing: 'campaigns unshare needs the campaign id', description: 'the campaign id' },
    ],
    options: {
      user: { type: 'string', value: 'E', required: true, description: 'the user, by e-mail address' },
    },
    migrate: true,
    async run({ db, config, args: [id], values, print }) {
      print(await campaigns.unshare(campaignDeps(db, config), id as string, values.user));
    },
  }),
  command({
    name: 'campaigns retention',
    summary: "set (--days N) or clear (--clear) a campaign's own, shorter retention, or show it",
    details: [
      'Answers and personal reports of the campaign older than N days (from completion, or from the',
      'start of a questionnaire never completed) are erased by the daily run of the scheduler.',
      'N must be fewer than ASSAY_RETENTION_DAYS when that is set; --clear goes back to the instance.',
    ],
    args: [
      { name: 'ID', missing: 'campaigns retention needs the campaign id', description: 'the campaign id' },
    ],
    options: {
      days: { type: 'string', value: 'N', description: 'keep answers and personal reports N days' },
      clear: { type: 'boolean', description: "follow the instance's retention again" },
    },
    migrate: true,
    async run({ db, config, args: [id], values, print }) {
      if (values.days !== undefined && values.clear) throw new UsageError('give --days or --clear, not both');
      print(
        await campaigns.retention(campaignDeps(db, config), id as string, {
          days: values.days,
          clear: Boolean(values.clear),
        }),
      );
    },
  }),
  command({
    name: 'export campaign',
    summary: 'a campaign as CSV or Excel: a row per member with its scores, and the verbatims',
    details: [
      'The file GET /campaigns/{id}/export answers: CSV (UTF-8 with BOM; --part verbatims for the',
      'free-text answers) or Excel (a Members and a Verbatims sheet). Written whole or not at all.',
      'A progress bar is drawn when stderr is a terminal; otherwise only the result is printed.',
    ],
    args: [{ name: 'ID', missing: 'export campaign needs the campaign id', description: 'the campaign id' }],
    options: {
      format: { type: 'string', value: 'csv|xlsx', required: true, description: 'the file format' },
      part: {
        type: 'string',
        value: 'members|verbatims',
        description: 'CSV only: which part (default members)',
      },
      out: { type: 'string', value: 'FILE', description: 'where to write (default: its name, here)' },
      json: { type: 'boolean', description: 'print {"file","rows","bytes"}' },
    },
    migrate: true,
    async run({ db, config, args: [id], values, io, print, json }) {
      const bar = io.terminal ? members.progressBar(io.terminal, 'exporting') : undefined;
      let result: Awaited<ReturnType<typeof exportCampaignFile>>;
      try {
        result = await exportCampaignFile(campaignDeps(db, config), id as string, values, bar?.update);
      } finally {
        bar?.end();
      }
      if (values.json) json(result);
      else print(`exported ${result.rows} members to ${result.file} (${result.bytes} bytes)`);
    },
  }),
  command({
    name: 'demo',
    summary: 'fill the instance with a demo data set (groups, 200 members, campaigns, reports)',
    details: [
      'Groups, 200 members, campaigns, completed questionnaires, personal reports and a group report',
      'of each type, made through the same services as the API, in one transaction. Runs once per instance.',
    ],
    options: { json },
    migrate: true,
    async run({ config, values, print, json }) {
      const started = performance.now();
      // One transaction: a demo that fails or is stopped half-way leaves nothing behind, and a
      // server on the same data sees it whole or not at all.
      const whole = openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        oneTransaction: true,
      });
      let summary: Awaited<ReturnType<typeof runDemo>>;
      try {
        summary = await runDemo(campaignDeps(whole, config));
        await whole.commit?.();
      } finally {
        // Without a commit, closing rolls the whole demo back.
        await whole.close();
      }
      if (values.json) json(summary);
      else {
        print(
          `demo data made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${summary.groups} groups, ${summary.members} members, ${summary.campaigns.length} campaigns, ${summary.personalReports} personal reports`,
        );
        for (const report of summary.groupReports) {
          print(`  ${report.type.padEnd(9)} ${report.reportid}  ${report.name}`);
        }
        print('open a PDF with GET /api/v1/reports/{reportid}, or list them with GET /api/v1/reports');
      }
    },
  }),
  ...WEBHOOK_COMMANDS,
  ...AUDIT_COMMANDS,
];
