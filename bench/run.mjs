#!/usr/bin/env node
// npm run bench [-- --only <scenario>]: runs every bench/scenarios/*.mjs and prints one table.
// A measurement, not a test: the exit code is 0 even when a target is missed.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SCENARIOS = path.join(ROOT, 'bench/scenarios');
// The fixed order; any other scenario file runs afterwards, by name.
const ORDER = [
  'members-list',
  'members-get',
  'token',
  'members-import',
  'busy',
  'variants',
  'campaigns',
  'reports',
  'questionnaire',
  'client',
  'console',
  'console-lists',
];
const SCENARIO_TIMEOUT_MS = 240_000;

const { values } = parseArgs({ options: { only: { type: 'string' } }, strict: true });

// Every package the scenarios load: the server (the CLI they start), the client and the MCP server.
const PACKAGES = ['packages/schema', 'packages/server', 'packages/client', 'packages/mcp'];
const ENTRY = { 'packages/server': 'dist/main.js' };
if (PACKAGES.some((pkg) => !existsSync(path.join(ROOT, pkg, ENTRY[pkg] ?? 'dist/index.js')))) {
  process.stdout.write(`a build is missing: building (npx tsc -b ${PACKAGES.join(' ')})\n`);
  execFileSync('npx', ['tsc', '-b', ...PACKAGES], { cwd: ROOT, stdio: 'inherit' });
}

// The bench measures what is built: say so when a source file is newer than every built file.
function newest(dir, ext) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(ext)) {
      latest = Math.max(latest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
    }
  }
  return latest;
}
// Per package: tsc -b leaves an output whose text did not change untouched, but always rewrites the
// package's tsbuildinfo, so that is the mark of the last build.
const builtAt = (pkg) =>
  Math.max(
    newest(path.join(ROOT, pkg, 'dist'), '.js'),
    statSync(path.join(ROOT, pkg, 'tsconfig.tsbuildinfo'), { throwIfNoEntry: false })?.mtimeMs ?? 0,
  );
const staleBuild = PACKAGES.some((pkg) => newest(path.join(ROOT, pkg, 'src'), '.ts') > builtAt(pkg));

// Imported after the build: the harness loads nothing from dist, but the scenarios may.
const harness = await import('./harness.mjs');

const found = readdirSync(SCENARIOS)
  .filter((file) => file.endsWith('.mjs'))
  .map((file) => file.slice(0, -4));
const names = [
  ...ORDER.filter((name) => found.includes(name)),
  ...found.filter((name) => !ORDER.includes(name)).sort(),
];
const selected = values.only ? names.filter((name) => name === values.only) : names;
if (values.only && selected.length === 0) {
  process.stderr.write(`no scenario named ${values.only}; there are: ${names.join(', ')}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a database of the bench's own, recreated empty for each instance, dropped at the end.

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const benchDb = `assay_bench_${process.pid}`;
let pgSkipped = null;
let pgUsed = false;

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

function benchUrl() {
  const url = new URL(adminUrl);
  url.pathname = `/${benchDb}`;
  return url.toString();
}

async function dropBenchDb() {
  await admin(`drop database if exists ${benchDb} with (force)`);
}

try {
  const host = new URL(adminUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) && !host.startsWith('/')) {
    throw new Error(`${host} is not a loopback address`);
  }
  await admin('select 1');
} catch (error) {
  pgSkipped = error.message;
}

const notes = [];
const ctx = {
  root: ROOT,
  pg: pgSkipped
    ? null
    : {
        /** Drops and recreates the bench database; answers its URL. */
        async fresh() {
          pgUsed = true;
          await dropBenchDb();
          await admin(`create database ${benchDb}`);
          return benchUrl();
        },
      },
  note(text) {
    notes.push(text);
  },
  log(text) {
    process.stderr.write(`  ${text}\n`);
  },
};

// ---------------------------------------------------------------------------------------------

const rows = [];
const failures = [];
const started = Date.now();

let interrupted = false;
async function finish() {
  await harness.cleanupAll();
  harness.closeAgent();
  if (pgUsed) await dropBenchDb().catch((error) => notes.push(`could not drop ${benchDb}: ${error.message}`));
}
process.on('exit', () => harness.cleanupSync());
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write(`\n${signal}: cleaning up\n`);
    // The scenarios measured so far are printed all the same: a long run cut short keeps them.
    finish().finally(() => {
      printTable(`interrupted by ${signal} during a scenario; the rows measured before it`);
      process.exit(130);
    });
  });
}

for (const name of selected) {
  const t0 = Date.now();
  process.stderr.write(`> ${name}\n`);
  try {
    const mod = await import(pathToFileURL(path.join(SCENARIOS, `${name}.mjs`)).href);
    // A scenario that declares no parameter (variants) takes no ctx.
    const result = mod.default.length === 0 ? mod.default() : mod.default(ctx);
    // A scenario may ask for longer (`export const timeoutMs`: the export seeds 100,000 reports).
    const got = await harness.withTimeout(
      Promise.resolve(result),
      mod.timeoutMs ?? SCENARIO_TIMEOUT_MS,
      name,
    );
    rows.push(...got);
  } catch (error) {
    failures.push({ name, error });
    rows.push({
      scenario: `${name}: FAILED`,
      figure: '-',
      floor: '-',
      ratio: '-',
      target: 'runs',
      pass: false,
    });
  } finally {
    // Whatever the scenario left running (a timeout, a throw) goes now.
    await harness.cleanupAll();
  }
  process.stderr.write(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
}
await finish();

// ---------------------------------------------------------------------------------------------
// The table

/** The table of every row measured, the targets met, the notes; `cut`, when the run was cut short. */
function printTable(cut) {
  const header = ['scenario', 'figure', 'floor (same run)', 'ratio', 'target', 'pass'];
  const cells = rows.map((row) => [
    String(row.scenario),
    String(row.figure),
    String(row.floor),
    String(row.ratio),
    String(row.target),
    row.pass ? 'yes' : 'NO',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => cell[i].length)));
  const line = (cell) => cell.map((text, i) => text.padEnd(widths[i])).join(' | ');
  const out = [];
  out.push('');
  out.push(line(header));
  out.push(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const cell of cells) out.push(line(cell));
  out.push('');
  const withTarget = rows.filter((row) => row.target !== '-');
  const met = withTarget.filter((row) => row.pass).length;
  out.push(`${met} of ${withTarget.length} targets met (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (pgSkipped) out.push(`PostgreSQL rows were skipped: ${adminUrl} is unreachable (${pgSkipped})`);
  if (staleBuild) {
    out.push('note: a source file is newer than the build: run `npm run build` to measure it');
  }
  for (const note of notes) out.push(`note: ${note}`);
  for (const { name, error } of failures) out.push(`${name} failed: ${error.stack ?? error}`);
  if (cut) out.push(`note: ${cut}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

printTable();
process.exit(0);
