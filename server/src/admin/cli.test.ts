import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqlRows, type Database, type Columns } from '../db/connection';
import type { users } from '../db/core.tables';
import { freshPostgresDatabase, realPostgresUrl } from '../test/databases';
import { runAdmin } from '../test/admin-command';

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
    const granted = await runAdmin(['grant', 'alice'], env());
    expect(granted).toMatchObject({ code: 0, stdout: 'alice is now an administrator.\n' });
    let db = await open();
    expect(await isAdmin(db, 'alice')).toBe(true);
    await db.close();

    const revoked = await runAdmin(['revoke', 'ALICE'], env());
    expect(revoked).toMatchObject({ code: 0, stdout: 'alice is no longer an administrator.\n' });
    db = await open();
    expect(await isAdmin(db, 'alice')).toBe(false);
    await db.close();
  });

  it('answers "No user named bob." and exit code 1 for an unknown user', async () => {
    const out = await runAdmin(['grant', 'bob'], env());
    expect(out.code).toBe(1);
    expect(out.stderr).toBe('No user named bob.\n');
  });

  it('prints the usage and exits 1 without a command or a username', async () => {
    for (const args of [[], ['grant'], ['promote', 'alice'], ['grant', 'alice', 'extra']]) {
      const out = await runAdmin(args, env());
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('Usage: npm run admin -- grant USERNAME | revoke USERNAME');
    }
  });

  it('tells the user to stop the server first while the data directory is in use', async () => {
    const held = await open();
    try {
      const out = await runAdmin(['grant', 'alice'], env());
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
    expect(await runAdmin(['grant', 'carol'], env)).toMatchObject({
      code: 0,
      stdout: 'carol is now an administrator.\n',
    });
    expect(await isAdmin(db, 'carol')).toBe(true);
    expect(await runAdmin(['revoke', 'carol'], env)).toMatchObject({
      code: 0,
      stdout: 'carol is no longer an administrator.\n',
    });
    expect(await isAdmin(db, 'carol')).toBe(false);
    const unknown = await runAdmin(['revoke', 'dave'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No user named dave.\n');
  });
});
