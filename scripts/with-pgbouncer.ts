// `tsx scripts/with-pgbouncer.ts -- <command…>`: runs the command with the suite's PostgreSQL reached through
// Debian's PgBouncer in transaction pooling (deploy/pgbouncer.ini), as a cluster runs it (docs/scaling.md):
// DATABASE_URL and TEST_POSTGRES_URL lead through PgBouncer, DATABASE_DIRECT_URL to PostgreSQL itself.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PgBouncer } from './cluster/pgbouncer';

const direct = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const command = process.argv.slice(process.argv.indexOf('--') + 1);
if (!process.argv.includes('--') || command.length === 0) {
  console.error('usage: tsx scripts/with-pgbouncer.ts -- <command> [args…]');
  process.exit(2);
}

const server = new URL(direct);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-pgbouncer-'));
const bouncer = await PgBouncer.start(dir, { host: server.hostname, port: Number(server.port || 5432) });
const pooled = bouncer.url(server.pathname.slice(1) || 'postgres');
console.log(`PgBouncer (transaction pooling) on ${pooled}, PostgreSQL itself at ${direct}`);
const result = spawnSync(command[0]!, command.slice(1), {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: pooled,
    TEST_POSTGRES_URL: pooled,
    DATABASE_DIRECT_URL: direct,
    TEST_POSTGRES_DIRECT_URL: direct,
  },
});
await bouncer.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
