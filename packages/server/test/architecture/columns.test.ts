import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * docs/architecture.md: repositories (`*.repository.ts`) and `db/` hold every query, every dialect
 * difference and one codec per JSON column, so a service or a wire mapper never parses column text
 * and never asks which engine it runs on. JSON that comes from outside (a request body, a file) is
 * parsed where it is read; those places are listed below, each with its reason.
 */

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Files outside repositories and `db/` that parse JSON, and why: none of it is column text. */
const PARSES_INPUT: Record<string, string> = {
  'app.ts': 'the JSON body parser of every API request',
  'members/import-body.ts': 'reads a member import request body a chunk at a time',
  'cli/members.commands.ts': 'the JSON file given to `assay members import`',
  'variants/json-checks.ts': "loads a variant's JSON files from its folder",
  'reports/personal.service.ts':
    'the JSON file of answers of a report import (the API body or a console upload)',
};

/**
 * Files outside repositories and `db/` that write JSON text, and why: none of it goes into a column
 * (a column's text is written by its codec, in its repository).
 */
const WRITES_JSON: Record<string, string> = {
  'app.ts': "the API's serializer",
  'auth/branding.ts': 'quotes a value in a refusal',
  'auth/oauth.routes.ts': 'the RFC endpoints answer plain JSON',
  'auth/registration.service.ts': 'quotes a redirect URI in a refusal',
  'cli/member-data.commands.ts': "prints a person's data",
  'cli/run-cli.ts': 'prints `--json` output',
  'console/members.routes.ts': "a person's data as a download",
  'console/views/report-import.view.ts': 'shows a value of an uploaded file as the operator sent it',
  'http/error-handler.ts': 'the body of an HTTP error',
  'http/json-stream.ts': 'streams an answer',
  'http/openapi.ts': 'compares two schemas',
  'http/route-guard.ts': 'quotes a guard in a start-up error',
  'members/erasure.service.ts': 'quotes a value in a refusal',
  'reports/reports.wire.ts': "the interface's `tags`, a JSON-encoded string on the wire",
  'validation/validator.ts': 'quotes a value in a refusal',
  'variants/json-checks.ts': "quotes a value in a variant's problem",
  'variants/load-variants.ts': "quotes a value in a variant's problem",
  'variants/variant-structure.ts': "quotes a value in a variant's problem",
  'variants/variant-texts.ts': "quotes a key in a variant's problem",
  'webhooks/events.ts': "a webhook message's body, as every attempt sends it",
};

/** Files outside repositories and `db/` that branch on the engine, and why. None remain. */
const BRANCHES_ON_DIALECT: Record<string, string> = {};

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

const mayKnowColumns = (path: string) => path.startsWith('db/') || path.endsWith('.repository.ts');

/** Comments stripped, so that prose naming a call does not count as one. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const parsesJson = (text: string) => /\bJSON\.parse\s*\(/.test(code(text));

const writesJson = (text: string) => /\bJSON\.stringify\s*\(/.test(code(text));

/** A Kysely query or a raw SQL fragment. */
const QUERY =
  /\.(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)\s*\(|\bsql\s*(?:<[^>]*>)?\s*`/;

const queries = (text: string) => QUERY.test(code(text));

const DIALECT_BRANCH =
  /\bdialect\s*[!=]==|[!=]==\s*['"](?:postgres|sqlite)['"]|instanceof\s+\w*Adapter\b|\[\s*(?:\w+\.)?dialect\s*\]|switch\s*\(\s*(?:\w+\.)?dialect\s*\)/;

const branchesOnDialect = (text: string) => DIALECT_BRANCH.test(code(text));

/** The files, relative to src/, outside repositories and `db/` for which `test` holds. */
function found(test: (text: string) => boolean): string[] {
  return files(src)
    .map((file) => ({ file, path: relative(src, file).split('\\').join('/') }))
    .filter(({ file, path }) => !mayKnowColumns(path) && test(readFileSync(file, 'utf8')))
    .map(({ path }) => path)
    .sort();
}

describe('queries, JSON columns and dialects stay in repositories and db/', () => {
  it('recognises what it looks for, and not in comments', () => {
    expect(parsesJson('const a = JSON.parse(text);')).toBe(true);
    expect(parsesJson('// JSON.parse(text) of the skeleton\n/* JSON.parse( */')).toBe(false);
    expect(parsesJson('JSON.stringify(value)')).toBe(false);
    for (const text of [
      "deps.dialect === 'postgres'",
      "if (dialect !== 'postgres') return;",
      "kind === 'sqlite'",
      'db.getExecutor().adapter instanceof PostgresAdapter',
      'queries[deps.dialect](db)',
      'switch (dialect) {',
    ])
      expect(branchesOnDialect(text), text).toBe(true);
    expect(branchesOnDialect('await find(deps.db, deps.dialect, token);')).toBe(false);
    for (const text of [
      "db.selectFrom('members').selectAll()",
      "await trx\n  .updateTable('users')",
      "trx.insertInto('audit_log')",
      'db.deleteFrom( "x" )',
      'sql`now()`',
      'sql<boolean>`a = 1`',
    ])
      expect(queries(text), text).toBe(true);
    expect(queries('// db.selectFrom(x) in a comment\nconst sqlText = 1;')).toBe(false);
    expect(writesJson('const a = JSON.stringify(value);')).toBe(true);
  });

  it('no query outside repositories and db/: services, routes and workers call a repository', () => {
    expect(found(queries), 'move the query into a *.repository.ts').toEqual([]);
  });

  it("no service, wire mapper or route writes JSON but the listed writers of what is not a column's text", () => {
    const unexpected = found(writesJson).filter((path) => !(path in WRITES_JSON));
    expect(unexpected, "encode the column with a codec in its table's repository").toEqual([]);
  });

  it('no service, wire mapper or route parses JSON but the listed readers of outside input', () => {
    const unexpected = found(parsesJson).filter((path) => !(path in PARSES_INPUT));
    expect(unexpected, "decode the column with a codec in its table's repository").toEqual([]);
  });

  it('nothing outside repositories and db/ branches on the database engine', () => {
    const unexpected = found(branchesOnDialect).filter((path) => !(path in BRANCHES_ON_DIALECT));
    expect(unexpected, 'move the engine-dependent part into a repository or db/').toEqual([]);
  });

  it('every listed exception still needs its place on the list', () => {
    expect(Object.keys(PARSES_INPUT).filter((path) => !found(parsesJson).includes(path))).toEqual([]);
    expect(Object.keys(WRITES_JSON).filter((path) => !found(writesJson).includes(path))).toEqual([]);
    expect(
      Object.keys(BRANCHES_ON_DIALECT).filter((path) => !found(branchesOnDialect).includes(path)),
    ).toEqual([]);
  });
});
