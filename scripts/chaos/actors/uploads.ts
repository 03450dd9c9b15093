import { pictureIdOf, randomInt, topUp, upload } from '../steps';
import type { Actor } from '../traffic';

/**
 * Picture uploads (multipart, a fresh PNG each), paid from the uploader's balance, topped up again when a 402 says
 * it is short. Each acknowledged upload must be a picture of its uploader at its price; no upload may count twice.
 */
export default function uploads(): Actor {
  const acked: { username: string; pictureId: number; amount: number }[] = [];
  const uncertain = new Map<string, number>();

  return {
    name: 'uploads',
    async run(t) {
      const worker = async () => {
        const session = await t.signUp();
        await topUp(session, 20_000);
        while (t.running) {
          // Upload prices are whole dollars (common/upload-rules.ts); other amounts answer 400.
          const amount = randomInt(1, 3) * 100;
          const answer = await upload(session, amount);
          if (answer.status === 200) acked.push({ username: session.username, pictureId: pictureIdOf(answer), amount });
          else if (answer.status === 402) await topUp(session, 20_000);
          else if (answer.status === 0 || answer.status === 503) {
            uncertain.set(session.username, (uncertain.get(session.username) ?? 0) + 1);
          }
        }
      };
      await Promise.all(Array.from({ length: 3 }, worker));
    },
    async verify(db) {
      const { rows } = await db.query<{ id: string; username: string; first_amount: string }>(
        `SELECT p.id, u.username,
           (SELECT amount FROM picture_purchases pp WHERE pp.picture_id = p.id ORDER BY pp.id LIMIT 1) AS first_amount
         FROM pictures p JOIN users u ON u.id = p.author_id WHERE p.id = ANY($1)`,
        [acked.map((a) => a.pictureId)],
      );
      const found = new Map(rows.map((r) => [Number(r.id), r]));
      const wrong = acked.filter((a) => {
        const row = found.get(a.pictureId);
        return !row || row.username !== a.username || Number(row.first_amount) !== a.amount;
      });

      // Per uploader: no fewer pictures than acknowledged, no more than acknowledged plus the calls left unknown.
      const users = [...new Set(acked.map((a) => a.username))];
      const counts = await db.query<{ username: string; n: string }>(
        `SELECT u.username, count(p.id) AS n FROM users u LEFT JOIN pictures p ON p.author_id = u.id
         WHERE u.username = ANY($1) GROUP BY u.username`,
        [users],
      );
      const off = counts.rows.filter((r) => {
        const ok = acked.filter((a) => a.username === r.username).length;
        return Number(r.n) < ok || Number(r.n) > ok + (uncertain.get(r.username) ?? 0);
      });
      return [
        {
          name: 'every acknowledged upload is a picture of its uploader at its price',
          ok: wrong.length === 0,
          detail: `${acked.length} acknowledged, ${wrong.length} missing or wrong`,
        },
        {
          name: 'no upload created twice',
          ok: off.length === 0,
          detail: `${users.length} uploaders, ${off.length} with a count outside [acknowledged, + unknown]`,
        },
      ];
    },
  };
}
