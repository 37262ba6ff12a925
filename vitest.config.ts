import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@assay/schema': new URL('./packages/schema/src/index.ts', import.meta.url).pathname },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['packages/server/test/helpers/global-setup.ts'],
    // Type tests (*.test-d.ts) run under `npm test` too: vitest hands them to tsc and reports each
    // failed expectTypeOf as a failed test.
    typecheck: {
      enabled: true,
      include: ['packages/*/test/**/*.test-d.ts'],
      tsconfig: 'packages/client/tsconfig.test.json',
    },
  },
});
