import { defineConfig } from 'vitest/config';

// A test that starts processes (a server, the admin command, ESLint) or runs thousands of random cases may take two
// minutes on a loaded 2-core machine; CI runs three jobs at once on two cores (.ci/run), where the embedded
// server's start took over 100 s, so CI gives each four minutes (docs/decisions.md, "CI in parallel streams"). No
// test names a timeout of its own: it would override these.
const timeout = process.env.CI ? 240_000 : 120_000;

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
