#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { buildApp, loadInstanceVariants } from './app.js';
import * as campaigns from './cli/campaigns.commands.js';
import * as commands from './cli/commands.js';
import { runDemo } from './cli/demo.commands.js';
import { cliFailure } from './cli/errors.js';
import * as keys from './cli/keys.commands.js';
import * as mail from './cli/mail.commands.js';
import * as members from './cli/members.commands.js';
import * as users from './cli/users.commands.js';
import { type Config, type ConfigFlags, loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';
import type { Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { VERSION } from './version.js';

const USAGE = `Usage: assay <command> [options]

Commands:
  start                      set up (migrations, signing keys) and serve; what \`npm start\` runs
  setup [--no-keys]          create or upgrade the database; make a signing key pair unless --no-keys
  serve                      serve the platform (runs pending migrations first)
  keys generate              make a new token-signing key pair
  users create --email E --firstname F --lastname L [--admin] [--password P]
               [--agency-name N] [--agency-footer T] [--color C] [--json]
                             a platform user; the agency name, footer and colour brand their reports
  users update --email E [--firstname F] [--lastname L] [--agency-name N] [--agency-footer T]
               [--color C] [--admin|--no-admin] [--json]
                             change only the given fields; --color #rgb or #rrggbb, --agency-name at
                             most 255 characters, --agency-footer at most 1000 and may span lines
  users list [--json]        the platform users: id, e-mail, role, name, agency name
  users password --email E --password P           the password for signing in (Authorization Code flow)
  clients create --name N --scopes "members groups ..." [--user E] [--redirect-uri U ...] [--json]
  clients update ID [--scopes "..."] [--json]     a new secret; the old one and its tokens stop working
  clients list [--json]
  clients delete ID                               the client's secret and its tokens stop working
  apikeys create --scopes "..." [--user E] [--name N] [--json]
  apikeys list [--json]      the API keys (never the keys themselves): id, name, scopes, owner, created
  apikeys revoke ID          the key is refused from the next call on, by running servers too
  members import FILE [--group ID] [--update] [--json]
                             members from a CSV file (a header row of field names) or JSON (an array
                             of members), by the rules of POST /members/import: --group puts the new
                             members in a group, --update changes members whose e-mail exists.
                             Prints created, updated and refused rows (row 1 is the first member);
                             --json the whole result. Exit code 1 when a row was refused
  mail list [--campaign ID] [--status queued|sending|sent|failed|captured] [--limit N] [--json]
                             the outbox, newest first (100 unless --limit)
  mail show ID               one mail: its headers, state, the server's last answer, its text
  mail retry ID              queue a failed or captured mail again
  mail retry --failed        queue every failed mail again
  mail preview --campaign ID --stage S [--language L] [--html]
                             the mail a stage of a campaign would send, for a sample member; nothing is sent
  campaigns share ID --user E     give a platform user editor access to a campaign
  campaigns unshare ID --user E   take it back
  demo [--json]              fill the instance with a demo data set: groups, 200 members, campaigns,
                             completed questionnaires, personal reports and a group report of each type

Options on every command:
  --data DIR                 the data folder of the embedded SQLite database (default ./data)
  --database-url URL         a PostgreSQL URL instead (or DATABASE_URL)
  --port N, --host H         where to listen (serve, start)
  --help, -h                 this text
  --version, -v              the version of Assay
`;

const OPTIONS = {
  data: { type: 'string' },
  'database-url': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'no-keys': { type: 'boolean' },
  json: { type: 'boolean' },
  email: { type: 'string' },
  firstname: { type: 'string' },
  lastname: { type: 'string' },
  admin: { type: 'boolean' },
  'no-admin': { type: 'boolean' },
  'agency-name': { type: 'string' },
  'agency-footer': { type: 'string' },
  color: { type: 'string' },
  password: { type: 'string' },
  name: { type: 'string' },
  scopes: { type: 'string' },
  user: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  campaign: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  failed: { type: 'boolean' },
  stage: { type: 'string' },
  language: { type: 'string' },
  html: { type: 'boolean' },
  group: { type: 'string' },
  update: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** A command line that cannot be run as given: one line, exit code 2. */
class UsageError extends Error {}

/** parseArgs' complaint in one line, without its advice on positionals. */
function usageOf(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const option = /Option '(-[^' ]+)/.exec(message)?.[1] ?? /Unknown option '([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return new UsageError(`unknown option ${option}`);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (message.includes('does not take an argument')) return new UsageError(`${option} takes no value`);
    if (message.includes('ambiguous'))
      return new UsageError(
        `${option} needs a value; one that starts with a dash is written ${option}=-VALUE`,
      );
    return new UsageError(`${option} needs a value`);
  }
  return new UsageError((message.split('\n')[0] as string).replace(/\. To specify .*$/, ''));
}

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

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

/** One line naming the setting behind a failed listen. */
function listenError(error: unknown, config: Config): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return new Error(`PORT (--port): ${where} is already in use`);
  if (code === 'EACCES') return new Error(`PORT (--port): no permission to listen on ${where}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new Error(`HOST (--host): cannot listen on ${config.host} (${code})`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function serve(db: Db, config: Config, setupFirst: boolean) {
  // A broken variant stops start-up before anything else happens.
  const variants = loadInstanceVariants(config);
  if (setupFirst)
    for (const line of await commands.setup(db.kysely, { keys: true, adminEmail: config.adminEmail }))
      print(line);
  else await migrateToLatest(db.kysely);
  const app = await buildApp({ config, database: db, variants });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await db.close();
    throw listenError(error, config);
  }
  // Only once the instance is listening: a secret printed by a start that then failed would be
  // the only copy of it, and the next start would not make another.
  const first = await commands.firstStart(db.kysely, config.adminEmail);
  print(
    `Assay is serving ${config.publicUrl} (API ${config.publicUrl}/api/v1, reference ${config.publicUrl}/api/docs)`,
  );
  if (first) {
    const { client, user } = first;
    const base = `${config.publicUrl}/api/v1`;
    print('');
    print(`First start: created the admin user ${user.email} and an OAuth client with every scope.`);
    print(`  client_id:     ${client.client_id}`);
    print(`  client_secret: ${client.client_secret}   (shown once: keep it now)`);
    print("For the README's first call, in this shell:");
    print(`  export CLIENT_ID=${client.client_id} CLIENT_SECRET=${client.client_secret}`);
    print('Get a token:');
    print(
      `  curl -s -X POST ${base}/auth/access_token -d grant_type=client_credentials -d client_id=${client.client_id} -d client_secret=${client.client_secret} --data-urlencode 'scope=${client.scopes}'`,
    );
    print(`Then: curl -s ${base}/members -H "Authorization: Bearer <access_token>"`);
  }
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw usageOf(error);
    }
  })();
  const [command, sub, arg] = positionals;
  if (values.version) {
    print(`assay ${VERSION}`);
    return;
  }
  if (values.help || !command) {
    print(USAGE);
    return;
  }
  const flags: ConfigFlags = {
    data: values.data,
    databaseUrl: values['database-url'],
    port: values.port,
    host: values.host,
  };
  const config = loadConfig(process.env, flags);
  const db = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (command === 'start' || command === 'serve') return serve(db, config, command === 'start');
  const json = (value: unknown) => print(JSON.stringify(value));
  try {
    if (command !== 'setup') await migrateToLatest(db.kysely);
    switch (`${command} ${sub ?? ''}`.trim()) {
      case 'setup':
        for (const line of await commands.setup(db.kysely, {
          keys: !values['no-keys'],
          adminEmail: config.adminEmail,
        }))
          print(line);
        print('setup complete');
        break;
      case 'keys generate':
        print(`signing key created: ${await commands.generateKey(db.kysely)}`);
        break;
      case 'users create': {
        const user = await users.create(db.kysely, {
          email: required(values, 'email'),
          firstname: required(values, 'firstname'),
          lastname: required(values, 'lastname'),
          admin: values.admin,
          password: values.password,
          color: values.color,
          'agency-name': values['agency-name'],
          'agency-footer': values['agency-footer'],
        });
        if (values.json) json(user);
        else print(`user created: ${user.id} ${user.email} (${user.role})`);
        break;
      }
      case 'users update': {
        const email = required(values, 'email');
        if (values.admin && values['no-admin']) throw new UsageError('give --admin or --no-admin, not both');
        if (values.password !== undefined)
          throw new UsageError('users update does not set passwords: use `assay users password`');
        const change = users.changeFromFlags(values);
        if (Object.keys(change).length === 0) {
          throw new UsageError(
            'users update needs a field to change: --firstname, --lastname, --agency-name, --agency-footer, --color, --admin or --no-admin',
          );
        }
        const user = await users.update(db.kysely, email, change);
        if (values.json) json(user);
        else print(`user updated: ${user.id} ${user.email} (${user.role})`);
        break;
      }
      case 'users list': {
        const list = await users.list(db.kysely);
        if (values.json) json(list);
        else for (const line of users.listLines(list)) print(line);
        break;
      }
      case 'users password':
        await commands.setPassword(db.kysely, required(values, 'email'), required(values, 'password'));
        print('password set');
        break;
      case 'clients create': {
        const client = await commands.addClient(db.kysely, {
          name: required(values, 'name'),
          scopes: required(values, 'scopes'),
          user: values.user,
          redirectUris: values['redirect-uri'],
        });
        if (values.json) json(client);
        else
          print(
            `client_id: ${client.client_id}\nclient_secret: ${client.client_secret} (shown once)\nscopes: ${client.scopes}`,
          );
        break;
      }
      case 'clients update': {
        if (!arg) throw new UsageError('clients update needs the client id');
        const client = await commands.changeClient(db.kysely, arg, values.scopes);
        if (values.json) json(client);
        else
          print(
            `client_id: ${client.client_id}\nclient_secret: ${client.client_secret} (new; the old one no longer works)\nscopes: ${client.scopes}`,
          );
        break;
      }
      case 'clients list': {
        const list = await commands.clients(db.kysely);
        if (values.json) json(list);
        else for (const client of list) print(`${client.client_id}  ${client.name}  [${client.scopes}]`);
        break;
      }
      case 'clients delete': {
        if (!arg) throw new UsageError('clients delete needs the client id');
        for (const line of await keys.removeClient(db.kysely, arg)) print(line);
        break;
      }
      case 'apikeys list': {
        const list = await keys.apiKeys(db.kysely);
        if (values.json) json(list);
        else for (const line of keys.apiKeyLines(list)) print(line);
        break;
      }
      case 'apikeys revoke':
        if (!arg) throw new UsageError('apikeys revoke needs the key id (see assay apikeys list)');
        print(await keys.revoke(db.kysely, arg));
        break;
      case 'members import': {
        if (!arg) throw new UsageError('members import needs the file to import');
        const file = members.readMembersFile(arg);
        const groupid = values.group ?? file.groupid;
        const bar = process.stderr.isTTY ? members.progressBar(process.stderr, 'importing') : undefined;
        let result: Awaited<ReturnType<typeof members.importRows>>;
        try {
          result = await members.importRows(db.kysely, file.members, {
            groupid,
            groupSource: values.group === undefined ? `${arg}: groupid` : '--group',
            update: values.update ?? file.update,
            progress: bar?.update,
          });
        } finally {
          bar?.end();
        }
        if (values.json) json(result);
        else for (const line of members.summaryLines(arg, result)) print(line);
        if (result.errors.length > 0) process.exitCode = 1;
        break;
      }
      case 'apikeys create': {
        const key = await commands.addApiKey(db.kysely, {
          scopes: required(values, 'scopes'),
          user: values.user,
          name: values.name,
        });
        if (values.json) json(key);
        else print(`apikey: ${key.apikey} (shown once; read-only)`);
        break;
      }
      case 'mail list': {
        const list = await mail.mailList(db.kysely, {
          campaign: values.campaign,
          status: values.status,
          limit: values.limit,
        });
        if (values.json) json(list);
        else for (const line of mail.mailListLines(list)) print(line);
        break;
      }
      case 'mail show': {
        if (!arg) throw new UsageError('mail show needs the mail id');
        const options = { variants: loadInstanceVariants(config), mailFrom: config.mailFrom };
        for (const line of await mail.mailShow(db.kysely, arg, options)) print(line);
        break;
      }
      case 'mail retry': {
        if (Boolean(arg) === Boolean(values.failed)) {
          throw new UsageError('mail retry needs either a mail id or --failed');
        }
        print(arg ? await mail.mailRetry(db.kysely, arg) : await mail.mailRetryFailed(db.kysely));
        break;
      }
      case 'mail preview': {
        const lines = await campaigns.preview(campaignDeps(db, config), {
          campaign: required(values, 'campaign'),
          stage: required(values, 'stage'),
          language: values.language,
          html: Boolean(values.html),
        });
        for (const line of lines) print(line);
        break;
      }
      case 'demo': {
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
        break;
      }
      case 'campaigns share':
      case 'campaigns unshare': {
        if (!arg) throw new UsageError(`campaigns ${sub} needs the campaign id`);
        const change = sub === 'share' ? campaigns.share : campaigns.unshare;
        print(await change(campaignDeps(db, config), arg, required(values, 'user')));
        break;
      }
      default:
        throw new UsageError(`unknown command: ${positionals.join(' ')}`);
    }
  } finally {
    await db.close();
  }
}

// Output piped into a command that stopped reading (`assay members import f.csv | head`) ends
// the process quietly, as other command-line tools do, instead of with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`assay: ${error.message} (see assay --help)\n`);
    process.exit(2);
  }
  const failure = cliFailure(error);
  process.stderr.write(`assay: ${failure.message}\n`);
  process.exit(failure.exitCode);
});
