import { defineConfig } from 'vitest/config';

// CI runs three jobs at once on two cores (.ci/run): a test that starts processes (a server, the admin command,
// ESLint) took over 60 s there on a slower machine, so CI gives each three minutes (docs/decisions.md,
// "CI in parallel streams").
const timeout = process.env.CI ? 180_000 : 60_000;

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: timeout,
    hookTimeout: timeout,
  },
});
