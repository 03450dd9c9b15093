import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/connection';
import { availableBalance } from '../ledger/ledger';

/** A frame to send on subscribe, so a client that (re)connects starts from the current value. */
export interface Snapshot {
  t: string;
  m: unknown;
}

/** The current value of a signed-in user's counter channel, or undefined for channels that have none. */
export async function currentSnapshot(exec: Executor, userId: number, channel: string): Promise<Snapshot | undefined> {
  switch (channel) {
    case 'balance':
      return { t: 'update', m: { value: await availableBalance(exec, userId) } };
    case 'keyCount':
    case 'lootBoxCount': {
      const [row] = await rows<{ key_count: number; loot_box_count: number }>(
        exec,
        sql`SELECT key_count, loot_box_count FROM users WHERE id = ${userId}`,
      );
      if (!row) return undefined;
      return { t: 'update', m: { value: channel === 'keyCount' ? row.key_count : row.loot_box_count } };
    }
    default:
      return undefined;
  }
}
