import type { ItemDetails } from '../../../common/api/items';
import { chatCost } from '../../../common/writing';
import { openLootboxes, randomInt, topUp } from '../steps';
import type { Actor, Session } from '../traffic';

/**
 * Chat messages under Idempotency-Keys (replays come from Session.pay), some sent with a stale `sendAmount` below
 * the cost, which must answer 409 and charge nothing (no send is ever charged above its `sendAmount`). Each acknowledged message must be in the room once, paid by
 * exactly one CHAT_MESSAGE entry of its cost; no refused or replayed send may add one.
 */
export default function chat(): Actor {
  /** Per user: sends acknowledged and their cents, and sends whose outcome stayed unknown. */
  const tally = new Map<string, { ok: number; okCents: number; unknown: number; stale: number; overcharged: number }>();

  /** A word of the lowercase letters the user owns (each letter needs only itself). */
  async function word(session: Session): Promise<string | undefined> {
    const res = await session.settle('chat items', 'GET', '/api/items/details');
    if (res.status !== 200) return undefined;
    const letters = (res.body as ItemDetails[])
      .filter((i) => i.rarity === 1 && i.user.quantity > 0)
      .map((i) => i.emoji.toLowerCase());
    if (letters.length === 0) return undefined;
    return Array.from({ length: randomInt(1, 25) }, () => letters[randomInt(0, letters.length - 1)]).join('');
  }

  return {
    name: 'chat',
    async run(t) {
      const worker = async () => {
        const session = await t.signUp();
        const mine = { ok: 0, okCents: 0, unknown: 0, stale: 0, overcharged: 0 };
        tally.set(session.username, mine);
        await topUp(session, 5_000);
        await openLootboxes(session, 1);
        while (t.running) {
          const text = await word(session);
          const price = await session.settle('chat price', 'GET', '/api/chat-room/unit-price');
          if (!text || price.status !== 200) continue;
          const cost = chatCost(text, (price.body as { unitPrice: number }).unitPrice);
          // One send in five carries a cost the user saw long ago: below the current one.
          const stale = Math.random() < 0.2;
          const sendAmount = stale ? cost - 1 : cost;
          const answer = await session.pay('chat', 'POST', '/api/user/message', {
            json: { message: text, sendAmount, balance: 0 },
          });
          if (stale) mine.stale++;
          if (answer.status === 200) {
            mine.ok++;
            const charged = (answer.body as { cost: number }).cost;
            mine.okCents += charged;
            if (charged > sendAmount) mine.overcharged++;
          } else if (answer.status === 402) await topUp(session, 5_000);
          else if (answer.status === 0 || answer.status === 503) mine.unknown++;
        }
      };
      await Promise.all(Array.from({ length: 3 }, worker));
    },
    async verify(db) {
      const users = [...tally.keys()];
      const { rows } = await db.query<{ username: string; messages: number; cents: number; entries: number }>(
        `SELECT u.username,
           (SELECT count(*) FROM chat_messages m WHERE m.sender_id = u.id)::int AS messages,
           (SELECT coalesce(sum(cost), 0) FROM chat_messages m WHERE m.sender_id = u.id)::int AS cents,
           (SELECT count(*) FROM journal_entries e WHERE e.user_id = u.id AND e.kind = 'CHAT_MESSAGE')::int AS entries
         FROM users u WHERE u.username = ANY($1)`,
        [users],
      );
      const off = rows.filter((r) => {
        const seen = tally.get(r.username)!;
        return (
          r.messages < seen.ok ||
          r.messages > seen.ok + seen.unknown ||
          r.entries !== r.messages ||
          r.cents < seen.okCents
        );
      });
      // Every message paid by exactly one entry naming it, for exactly its cost.
      const unpaid = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM chat_messages m
         WHERE (SELECT count(*) FROM journal_entries e JOIN postings p ON p.entry_id = e.id
                WHERE e.kind = 'CHAT_MESSAGE' AND e.resource_id = m.id::text
                  AND p.account_code = 'user:' || m.sender_id || ':available' AND p.amount = -m.cost) <> 1`,
      );
      const all = [...tally.values()];
      const sum = (f: (x: (typeof all)[number]) => number) => all.reduce((s, x) => s + f(x), 0);
      return [
        {
          name: 'every acknowledged chat message is in the room once, paid once',
          ok: off.length === 0 && unpaid.rows[0]!.n === 0,
          detail: `${sum((x) => x.ok)} acknowledged from ${users.length} users, ${off.length} users off, ${unpaid.rows[0]!.n} messages not paid exactly once${off.length ? `: ${JSON.stringify(off.slice(0, 3))}` : ''}`,
        },
        {
          name: 'no send is charged above the sendAmount it carried (stale ones answer 409)',
          ok: sum((x) => x.overcharged) === 0,
          detail: `${sum((x) => x.stale)} sends with a stale sendAmount, ${sum((x) => x.overcharged)} charged above it`,
        },
      ];
    },
  };
}
