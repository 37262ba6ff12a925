import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeTemplates } from './templates.js';

/**
 * Builds the packages once (the CLI tests run the compiled `assay`), says which engines the API
 * tests run on, and makes the migrated databases every test's fresh database is copied from.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../../../..');
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-b', 'packages/schema', 'packages/server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\nPostgreSQL skipped: TEST_DATABASE_URL is not set, so the API tests run on SQLite only (.ci/run sets it).\n\n',
    );
  }
  const { templates, drop } = await makeTemplates(process.env.TEST_DATABASE_URL);
  project.provide('migratedTemplates', templates);
  return drop;
}
