import { sql } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor } from '../../db/connection';
import type { blockedWords } from './moderation.tables';

/** The blocked words' SQL (docs/product.md#blocks): the admin's list, stored lower-case. */

export async function listWords(exec: Executor): Promise<string[]> {
  const rows = await sqlRows(
    exec,
    sql<Columns<typeof blockedWords, 'word'>>`SELECT word FROM blocked_words ORDER BY word`,
  );
  return rows.map((r) => r.word);
}

/** The list becomes `words` (already normalized), in one transaction's statements. */
export async function replaceWords(exec: Executor, words: readonly string[], at: Date): Promise<void> {
  await exec.execute(sql`DELETE FROM blocked_words`);
  if (words.length === 0) return;
  const values = sql.join(
    words.map((w) => sql`(${w}, ${at})`),
    sql`, `,
  );
  await exec.execute(sql`INSERT INTO blocked_words (word, created_at) VALUES ${values}`);
}
