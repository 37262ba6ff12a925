import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The layering rule of docs/architecture.md: HTTP is an adapter. Only `http/`, the route files
 * (`*.routes.ts`), the plugins that set up a scope for them (`*.plugin.ts`) and the app's assembly
 * (`app.ts`) may import from `http/` or from Fastify;
 * services, repositories, the CLI and the scheduler stay callable without a web server.
 */

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * Fastify glue that still lives outside `http/`, each for a reason; remove an entry when its file
 * moves (the test fails on an entry that no longer needs to be here).
 */
const GLUE: Record<string, string> = {
  'auth/guard.ts': 'the /api/v1 authentication hook reads the request',
  'pages/security.ts': 'CSRF and page headers of the participant pages',
  'questionnaire/page-kit.ts': 'renders participant pages onto the reply',
  'console/console-kit.ts': 'the console session cookie, its form token, and pages sent onto the reply',
};

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

const specifiers = (text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((match) => match[1] as string);

const isFastify = (specifier: string) =>
  specifier === 'fastify' ||
  specifier.startsWith('fastify/') ||
  specifier.startsWith('@fastify/') ||
  specifier === 'find-my-way';

const mayUseHttp = (path: string) =>
  path.startsWith('http/') || path.endsWith('.routes.ts') || path.endsWith('.plugin.ts') || path === 'app.ts';

/** The files, relative to src/, that break the rule, each with what it imports. */
function offenders(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files(src)) {
    const path = relative(src, file).split('\\').join('/');
    if (mayUseHttp(path)) continue;
    const bad = specifiers(readFileSync(file, 'utf8')).filter(
      (specifier) =>
        isFastify(specifier) ||
        (specifier.startsWith('.') &&
          relative(src, resolve(dirname(file), specifier))
            .split('\\')
            .join('/')
            .startsWith('http/')),
    );
    if (bad.length > 0) found.set(path, bad);
  }
  return found;
}

/** A file's relative imports, each resolved to a path relative to src/, with whether it imports types only. */
function relativeImports(file: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bimport\s+(type\s+)?[^'"]*?from\s*['"](\.[^'"]+)['"]/g)].map((match) => ({
    target: relative(src, resolve(dirname(file), (match[2] as string).replace(/\.js$/, '.ts')))
      .split('\\')
      .join('/'),
    typeOnly: match[1] !== undefined,
  }));
}

const sources = () => files(src).map((file) => ({ file, path: relative(src, file).split('\\').join('/') }));

describe('layering', () => {
  it('reads the imports it checks', () => {
    expect(
      specifiers(`import type { A } from 'fastify';\nimport {\n  b,\n} from '../http/errors.js';`),
    ).toEqual(['fastify', '../http/errors.js']);
  });

  it('nothing outside http/, the route files, the scope plugins and app.ts import http/ or Fastify', () => {
    const unexpected = [...offenders()]
      .filter(([path]) => !(path in GLUE))
      .map(([path, imports]) => `${path} imports ${imports.join(', ')}`);
    expect(unexpected, 'move the HTTP part into http/ or a *.routes.ts file').toEqual([]);
  });

  it('every listed piece of glue still needs its place on the list', () => {
    const found = offenders();
    expect(Object.keys(GLUE).filter((path) => !found.has(path))).toEqual([]);
  });

  it('reads which imports are of types only', () => {
    const probe = join(src, 'app.ts');
    expect(relativeImports(probe).length).toBeGreaterThan(0);
  });

  it('a route file calls services, never a repository (a type from one is fine)', () => {
    const unexpected = sources()
      .filter(({ path }) => path.endsWith('.routes.ts') || path.endsWith('.plugin.ts'))
      .flatMap(({ file, path }) =>
        relativeImports(file)
          .filter(({ target, typeOnly }) => !typeOnly && target.endsWith('.repository.ts'))
          .map(({ target }) => `${path} imports ${target}`),
      );
    expect(unexpected, 'call a service that asks the repository').toEqual([]);
  });

  it('route files are imported only by the plugins that register them and app.ts', () => {
    const unexpected = sources()
      .filter(({ path }) => !path.endsWith('.plugin.ts') && path !== 'app.ts')
      .flatMap(({ file, path }) =>
        relativeImports(file)
          .filter(({ target }) => target.endsWith('.routes.ts'))
          .map(({ target }) => `${path} imports ${target}`),
      );
    expect(unexpected, 'move what both need out of the route file').toEqual([]);
  });
});
