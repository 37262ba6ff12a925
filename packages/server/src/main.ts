#!/usr/bin/env node
import type { CliIo } from './cli/command.js';
import * as commands from './cli/commands.js';
import { failure, runCli } from './cli/run-cli.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadInstanceVariants } from './variants/load-variants.js';

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
  // The server (Fastify, every route, the MCP SDK) is loaded by the commands that serve only: the
  // others start in about half the time without it.
  const { buildApp } = await import('./app.js');
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
  print(`Console: ${config.publicUrl}/console`);
  if (first) {
    const { client, user } = first;
    const base = `${config.publicUrl}/api/v1`;
    const link = await commands.signInLink(db.kysely, config.publicUrl, user.email);
    print('');
    print(`First start: open the console as the admin ${user.email} with this one-time link (24 hours):`);
    print(`  ${link.url}`);
    print('  then set a password for next time: assay users password --email <e-mail> --password <password>');
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

// Output piped into a command that stopped reading (`assay members import f.csv | head`) ends
// the process quietly, as other command-line tools do, instead of with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  terminal: process.stderr.isTTY ? process.stderr : undefined,
  serve,
};

// A command that failed ends the process at once (a half-open pool must not keep it alive); one
// that succeeded ends when its work is done, or keeps serving.
runCli(process.argv.slice(2), io).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`${failure(error).line}\n`);
    process.exit(1);
  },
);
