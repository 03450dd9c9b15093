import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // The core tables and every domain's own `<domain>.tables.ts`.
  schema: ['./server/src/db/core.tables.ts', './server/src/mail/mail.tables.ts', './server/src/modules/*/*.tables.ts'],
  out: './server/src/db/migrations',
});
