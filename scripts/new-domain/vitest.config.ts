import { defineConfig } from 'vitest/config';

/** `npm run test:new-domain` (scripts/new-domain/new-domain.test.ts): minutes long, apart from the unit suite. */
export default defineConfig({
  test: {
    include: ['scripts/new-domain/*.test.ts'],
    environment: 'node',
    testTimeout: 900_000,
    hookTimeout: 120_000,
  },
});
