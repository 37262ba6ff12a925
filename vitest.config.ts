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
  },
});
