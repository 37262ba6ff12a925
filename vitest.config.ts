import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that need a process of their own, where every other file shares one module graph per
 * worker (`isolate: false`): one mocks a module; one measures its process's memory with a full
 * collection every 100 ms or more, which in a worker that ran 170 files before it walks all their
 * modules each time (128 s in a clean clone, 10-16 s in a process of its own). They still run side
 * by side with the rest: no test measures time (latency targets are measured by `npm run bench`).
 */
const ISOLATED = [
  'packages/server/test/http/route-guards-startup.test.ts',
  'packages/server/test/members/import-memory.test.ts',
];

export default defineConfig({
  resolve: {
    alias: { '@assay/schema': new URL('./packages/schema/src/index.ts', import.meta.url).pathname },
  },
  test: {
    // Safety nets only: no test measures time (habit 20). A file that takes 15 s on an idle 2-core
    // machine takes three or four times that beside other work, and a timeout then fails a test
    // that would have passed; a test that hangs is reported a little later instead.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for an event (a row, a log line, a page's text); its default 1 s is a speed
    // a busy machine misses. 20 s is only a safety net, well within a test's own timeout.
    expect: { poll: { timeout: 20_000 } },
    pool: 'forks',
    // A test file spends much of its time waiting on PostgreSQL, Chromium, SMTP or a socket, so
    // vitest's default in a run (one worker fewer than the cores: a single one on two cores)
    // leaves a core idle; every file makes its own databases and ports, so files run side by side.
    maxWorkers: Math.max(2, os.availableParallelism()),
    globalSetup: ['packages/server/test/helpers/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'side-by-side',
          include: ['packages/*/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
          // Type tests (*.test-d.ts) are not run here but by `npm run lint`, whose `tsc -p
          // packages/client/tsconfig.test.json` compiles them: a failed expectTypeOf is a compile
          // error there. Vitest would run its typecheck as a group of its own, after every runtime
          // test file and with nothing beside it (some 30 s of the suite); .ci/run lints anyway.
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
