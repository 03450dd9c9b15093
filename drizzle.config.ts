import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './server/src/db/schema.ts',
    './server/src/modules/pictures/pictures.schema.ts',
    './server/src/modules/notifications/notifications.schema.ts',
  ],
  out: './server/src/db/migrations',
});
