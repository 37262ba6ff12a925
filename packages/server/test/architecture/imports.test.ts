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
});
