import compress from '@fastify/compress';
import type { App } from '../context';

/**
 * Answers over 1 KB are compressed on the fly, brotli when the browser takes it and gzip otherwise: JSON (a wall
 * page), the demo checkout page, the API docs. The built client's files are compressed once at build time
 * (vite.config.ts) and sent as they are (modules/spa): they already carry a Content-Encoding, so this hook leaves
 * them alone, as it does images (not a compressible type). Request bodies are read as they come, never inflated.
 * Registered before every route, since its hook goes to the routes declared after it.
 */
export async function registerCompression(app: App): Promise<void> {
  await app.register(compress, { globalDecompression: false, encodings: ['br', 'gzip'], threshold: 1024 });
}
