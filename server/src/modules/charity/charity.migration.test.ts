import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../db/connection';

/*
 * Migration 0011 on a database that already holds copies of one donation (docs/decisions.md, "One donation, credited
 * once"): the database is migrated to 0010, given links as they could be stored then, and migrated on.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The migrations folder as it was up to `last` (its journal cut there). */
function migrationsUpTo(last: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries)
    fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

describe('migration 0011 (charity link keys)', () => {
  it('keeps one pending or approved link per donation, rejects the later pending copies and says why', async () => {
    const pg = new PGlite();
    try {
      const db = drizzle(pg);
      await migrate(db, { migrationsFolder: migrationsUpTo(10) });
      const user = async (name: string) =>
        (
          await pg.query<{ id: number }>(
            `INSERT INTO users (username, email, badge) VALUES ($1, $1 || '@example.test', upper($1)) RETURNING id`,
            [name],
          )
        ).rows[0]!.id;
      const [a, b, c] = [await user('a'), await user('b'), await user('c')];
      const link = async (sender: number, url: string, state: 'pending' | 'approved' | 'rejected' = 'pending') =>
        (
          await pg.query<{ id: number }>(
            `INSERT INTO charity_links (sender_id, link, badge, decided, approved, amount)
             VALUES ($1, $2, 'B', $3, $4, $5) RETURNING id`,
            [sender, url, state !== 'pending', state === 'approved', state === 'approved' ? 5000 : null],
          )
        ).rows[0]!.id;
      const pendingTwice = [await link(a, 'https://one.example.org/d'), await link(b, 'one.example.org/d/')];
      const approvedThenPending = [
        await link(a, 'https://two.example.org/d', 'approved'),
        await link(c, 'HTTP://TWO.example.org/d'),
      ];
      const approvedTwice = [
        await link(a, 'https://three.example.org/d', 'approved'),
        await link(b, 'three.example.org/d', 'approved'),
      ];
      const rejectedThenPending = [
        await link(a, 'https://four.example.org/d', 'rejected'),
        await link(b, 'https://four.example.org/d'),
      ];
      const alone = await link(c, 'https://five.example.org/d');

      await migrate(db, { migrationsFolder });

      const state = async (id: number) =>
        (
          await pg.query<{ decided: boolean; approved: boolean; reason: string | null; keyed: boolean }>(
            `SELECT decided, approved, rejection_reason AS reason, link_key IS NOT NULL AS keyed
             FROM charity_links WHERE id = $1`,
            [id],
          )
        ).rows[0]!;
      const pending = { decided: false, approved: false, reason: null, keyed: true };
      const copy = {
        decided: true,
        approved: false,
        reason: 'This donation was already sent in another link.',
        keyed: true,
      };
      const approved = { decided: true, approved: true, reason: null };
      expect(await state(pendingTwice[0]!)).toEqual(pending);
      expect(await state(pendingTwice[1]!)).toEqual(copy);
      expect(await state(approvedThenPending[0]!)).toEqual({ ...approved, keyed: true });
      expect(await state(approvedThenPending[1]!)).toEqual(copy);
      // Credited twice before the rule: the money moved; the first approval keeps the key.
      expect(await state(approvedTwice[0]!)).toEqual({ ...approved, keyed: true });
      expect(await state(approvedTwice[1]!)).toEqual({ ...approved, keyed: false });
      expect(await state(rejectedThenPending[1]!)).toEqual(pending);
      expect(await state(alone)).toEqual(pending);

      const told = await pg.query<{ user_id: number; message: string }>(
        `SELECT user_id, message FROM notification_events WHERE topic = 'SYSTEM_MESSAGE' ORDER BY user_id`,
      );
      expect(told.rows).toEqual([
        { user_id: b, message: expect.stringContaining('already sent in another link') },
        { user_id: c, message: expect.stringContaining('already sent in another link') },
      ]);

      // From now on the index holds: a second pending copy of a kept link cannot be stored.
      const key = (
        await pg.query<{ link_key: string }>(`SELECT link_key FROM charity_links WHERE id = $1`, [pendingTwice[0]])
      ).rows[0]!.link_key;
      await expect(
        pg.query(`INSERT INTO charity_links (sender_id, link, link_key, badge) VALUES ($1, 'x', $2, 'B')`, [c, key]),
      ).rejects.toThrow(/charity_links_link_key/);
    } finally {
      await pg.close();
    }
  });
});
