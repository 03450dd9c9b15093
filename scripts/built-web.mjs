// The built web client (dist/web), built again when missing or older than its sources: `npm start` and
// `npm run cluster` serve it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist/web/index.html');
const sources = ['web', 'common', 'vite.config.ts'].map((p) => path.join(root, p)).filter((p) => existsSync(p));

/** The newest modification time under a file or folder. */
function newest(p) {
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(p).reduce((max, entry) => Math.max(max, newest(path.join(p, entry))), stat.mtimeMs);
}

export async function ensureBuiltWeb() {
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newest))) return;
  console.log('Building the web client (vite build)...');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
