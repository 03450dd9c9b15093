import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web client: built into dist/web, which the server serves (server/src/modules/spa/spa.routes.ts).
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
      '/demo-checkout': { target: 'http://localhost:3000' },
    },
  },
});
