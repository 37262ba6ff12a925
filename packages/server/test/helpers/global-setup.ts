import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds the packages once (the CLI tests run the compiled `assay`), and says which engines the
 * API tests run on.
 */
export default function setup() {
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
}
