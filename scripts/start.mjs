// `npm start`: builds the web client when dist/web is missing or older than its sources, then runs the server.
import { spawn } from 'node:child_process';
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

if (!existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newest))) {
  console.log('Building the web client (vite build)...');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
