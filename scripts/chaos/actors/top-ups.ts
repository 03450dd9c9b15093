import { randomInt, topUp } from '../steps';
import type { Actor } from '../traffic';

/**
 * Top-ups through the demo provider: checkout, Pay, a replay of Pay now and then; a new user every few payments,
 * so registrations are part of the traffic too. Every paid top-up must be in the books exactly once.
 */
export default function topUps(): Actor {
  return {
    name: 'top-ups',
    async run(t) {
      const worker = async () => {
        let session = await t.signUp();
        for (let i = 1; t.running; i++) {
          if (i % 8 === 0) session = await t.signUp();
          await topUp(session, randomInt(100, 5_000));
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
    },
    async verify(db, t) {
      // Every top-up any actor saw paid, not only this actor's: they all go through the same two calls.
      const acked = t.acks.filter((a) => a.kind === 'top-up');
      const { rows } = await db.query<{
        id: string;
        status: string;
        amount: string;
        username: string;
        entries: string;
      }>(
        `SELECT p.id, p.status, p.amount, u.username,
           (SELECT count(*) FROM journal_entries j WHERE j.kind = 'TOPUP' AND j.resource_id = p.id) AS entries
         FROM payments p JOIN users u ON u.id = p.user_id WHERE p.id = ANY($1)`,
        [acked.map((a) => (a.body as { id: string }).id)],
      );
      const found = new Map(rows.map((r) => [r.id, r]));
      const wrong = acked.filter((a) => {
        const body = a.body as { id: string; amount: number; status: string };
        const row = found.get(body.id);
        return (
          !row ||
          body.status !== 'paid' ||
          row.status !== 'paid' ||
          Number(row.amount) !== body.amount ||
          row.username !== a.username ||
          Number(row.entries) !== 1
        );
      });
      return [
        {
          name: 'every acknowledged top-up is paid and credited once',
          ok: wrong.length === 0,
          detail: `${acked.length} acknowledged, ${wrong.length} missing or wrong${wrong.length ? `: ${JSON.stringify(wrong.slice(0, 3))}` : ''}`,
        },
      ];
    },
  };
}
