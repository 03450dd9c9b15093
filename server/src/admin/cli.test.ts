import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqlRows, type Database, type Columns } from '../db/connection';
import type { users } from '../db/core.tables';
import { freshPostgresDatabase, realPostgresUrl } from '../test/databases';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run admin -- …` as a person would, with the given database settings and nothing else from ours. */
function admin(args: string[], env: Record<string, string>): Promise<Outcome> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['server/src/admin/cli.ts', ...args], { cwd: root, env: { ...inherited, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function addUser(db: Database, username: string): Promise<void> {
  await db.db.execute(
    sql`INSERT INTO users (username, email, badge) VALUES (${username}, ${`${username}@example.test`}, ${`B${username}`})`,
  );
}

async function isAdmin(db: Database, username: string): Promise<boolean | undefined> {
  const [row] = await sqlRows(
    db.db,
    sql<Columns<typeof users, 'is_admin'>>`SELECT is_admin FROM users WHERE username = ${username}`,
  );
  return row?.is_admin;
}

describe('npm run admin on the embedded database', () => {
  let dataDir: string;
  const env = () => ({ DATA_DIR: dataDir });
  const open = () => openDatabase({ dataDir });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
    const db = await open();
    await addUser(db, 'alice');
    await db.close();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('grants and then revokes administrator rights, saying so in one line', async () => {
    const granted = await admin(['grant', 'alice'], env());
    expect(granted).toMatchObject({ code: 0, stdout: 'alice is now an administrator.\n' });
    let db = await open();
    expect(await isAdmin(db, 'alice')).toBe(true);
    await db.close();

    const revoked = await admin(['revoke', 'ALICE'], env());
    expect(revoked).toMatchObject({ code: 0, stdout: 'alice is no longer an administrator.\n' });
    db = await open();
    expect(await isAdmin(db, 'alice')).toBe(false);
    await db.close();
  });

  it('answers "No user named bob." and exit code 1 for an unknown user', async () => {
    const out = await admin(['grant', 'bob'], env());
    expect(out.code).toBe(1);
    expect(out.stderr).toBe('No user named bob.\n');
  });

  it('prints the usage and exits 1 without a command or a username', async () => {
    for (const args of [[], ['grant'], ['promote', 'alice'], ['grant', 'alice', 'extra']]) {
      const out = await admin(args, env());
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('Usage: npm run admin -- grant USERNAME | revoke USERNAME');
    }
  });

  it('tells the user to stop the server first while the data directory is in use', async () => {
    const held = await open();
    try {
      const out = await admin(['grant', 'alice'], env());
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('is in use by another process (is the server running?)');
      expect(out.stderr).toContain('Stop that process first');
      expect(await isAdmin(held, 'alice')).toBe(false);
    } finally {
      await held.close();
    }
  });
});

describe.skipIf(!realPostgresUrl)('npm run admin on PostgreSQL', () => {
  let pgdb: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let db: Database;

  beforeAll(async () => {
    pgdb = await freshPostgresDatabase(realPostgresUrl!);
    db = await openDatabase({ databaseUrl: pgdb.url, directUrl: pgdb.directUrl, poolSize: 2 });
    await addUser(db, 'carol');
  });
  afterAll(async () => {
    await db?.close();
    await pgdb?.drop();
  });

  it('grants and revokes while the server may be running, since PostgreSQL is shared', async () => {
    const env = { DATABASE_URL: pgdb.url };
    expect(await admin(['grant', 'carol'], env)).toMatchObject({ code: 0, stdout: 'carol is now an administrator.\n' });
    expect(await isAdmin(db, 'carol')).toBe(true);
    expect(await admin(['revoke', 'carol'], env)).toMatchObject({
      code: 0,
      stdout: 'carol is no longer an administrator.\n',
    });
    expect(await isAdmin(db, 'carol')).toBe(false);
    const unknown = await admin(['revoke', 'dave'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No user named dave.\n');
  });
});
