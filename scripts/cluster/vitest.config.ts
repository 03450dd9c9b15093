import { defineConfig } from 'vitest/config';

/** The cluster's own tests (`npm run test:cluster`): a whole topology of real servers, so one file at a time. */
export default defineConfig({
  test: {
    include: ['scripts/cluster/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
