// `npm start`: builds the web client when dist/web is missing or older than its sources, then runs the server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuiltWeb } from './built-web.mjs';

const root = path.resolve(import.meta.dirname, '..');
await ensureBuiltWeb();

const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
