import { randomInt, topUp } from '../steps';
import type { Actor } from '../traffic';

/**
 * Keys bought with money, free boxes, and openings that mint items. Each acknowledged opening must be in the books
 * with its five items; none may happen twice; the items in existence must equal the items minted.
 */
export default function lootboxes(): Actor {
  /** Per user: openings acknowledged, and opening calls whose outcome stayed unknown. */
  const tally = new Map<string, { ok: number; unknown: number }>();

  return {
    name: 'lootboxes',
    async run(t) {
      const worker = async () => {
        const session = await t.signUp();
        const mine = { ok: 0, unknown: 0 };
        tally.set(session.username, mine);
        await topUp(session, 5_000);
        while (t.running) {
          const keys = await session.pay('keys', 'POST', '/api/purchase/key', {
            json: { keyCount: randomInt(1, 4), balance: 0 },
          });
          if (keys.status === 402) await topUp(session, 5_000);
          await session.pay('lootbox', 'POST', '/api/purchase/lootbox', { json: {} });
          const opened = await session.pay('open', 'POST', '/api/open/lootbox', { json: {} });
          if (opened.status === 200) mine.ok++;
          else if (opened.status === 0 || opened.status === 503) mine.unknown++;
        }
      };
      await Promise.all(Array.from({ length: 3 }, worker));
    },
    async verify(db) {
      const users = [...tally.keys()];
      const { rows } = await db.query<{ username: string; openings: number; items: number }>(
        `SELECT u.username,
           (SELECT count(*) FROM lootbox_openings o WHERE o.user_id = u.id)::int AS openings,
           (SELECT coalesce(sum(quantity), 0) FROM inventories i WHERE i.user_id = u.id)::int AS items
         FROM users u WHERE u.username = ANY($1)`,
        [users],
      );
      const off = rows.filter((r) => {
        const seen = tally.get(r.username)!;
        return r.openings < seen.ok || r.openings > seen.ok + seen.unknown || r.items !== 5 * r.openings;
      });
      const items = await db.query<{ minted: number; existing: number; unbalanced: number }>(
        `SELECT (SELECT coalesce(-sum(quantity), 0) FROM item_postings WHERE user_id IS NULL)::int AS minted,
           (SELECT coalesce(sum(quantity), 0) FROM inventories)::int AS existing,
           (SELECT count(*) FROM (SELECT 1 FROM item_postings GROUP BY entry_id, item_type
              HAVING sum(quantity) <> 0) u)::int AS unbalanced`,
      );
      const i = items.rows[0]!;
      const acked = [...tally.values()].reduce((s, v) => s + v.ok, 0);
      return [
        {
          name: 'every acknowledged opening is in the books with its 5 items, none twice',
          ok: off.length === 0 && rows.length === users.length,
          detail: `${acked} acknowledged openings by ${users.length} users, ${off.length} outside [acknowledged, + unknown] or without 5 items each${off.length ? `: ${JSON.stringify(off.slice(0, 3))}` : ''}`,
        },
        {
          name: 'items in existence equal items minted',
          ok: i.minted === i.existing && i.unbalanced === 0,
          detail: `${i.minted} minted, ${i.existing} owned, ${i.unbalanced} unbalanced item entries`,
        },
      ];
    },
  };
}
