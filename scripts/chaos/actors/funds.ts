import { pictureIdOf, randomInt, topUp, upload } from '../steps';
import type { Actor, Session } from '../traffic';

/**
 * Funding pictures on the wall (checkout-with-image-fund), topping up again when a 402 says the balance is short.
 * Each acknowledged fund must be a purchase in the books; no fund may count twice.
 */
export default function funds(): Actor {
  /** Per payer and picture: funds acknowledged, and calls whose outcome stayed unknown. */
  const tally = new Map<
    string,
    { username: string; pictureId: number; ok: number; okCents: number; unknown: number; unknownCents: number }
  >();
  const entry = (username: string, pictureId: number) => {
    const k = `${username}/${pictureId}`;
    let e = tally.get(k);
    if (!e) tally.set(k, (e = { username, pictureId, ok: 0, okCents: 0, unknown: 0, unknownCents: 0 }));
    return e;
  };

  async function target(session: Session): Promise<number | undefined> {
    const list = await session.settle('wall', 'GET', '/api/pictures?sort=top&limit=20');
    const ids = list.status === 200 ? (list.body as { id: number }[]).map((p) => p.id) : [];
    if (ids.length) return ids[Math.floor(Math.random() * ids.length)];
    const mine = await upload(session, 100); // an empty wall: put one up to fund
    return mine.status === 200 ? pictureIdOf(mine) : undefined;
  }

  return {
    name: 'funds',
    async run(t) {
      const worker = async () => {
        const session = await t.signUp();
        await topUp(session, 20_000);
        while (t.running) {
          const pictureId = await target(session);
          if (pictureId === undefined) continue;
          const amount = randomInt(1, 500);
          const answer = await session.pay('fund', 'POST', '/api/payment/checkout-with-image-fund', {
            json: { imageId: pictureId, amount },
          });
          const e = entry(session.username, pictureId);
          if (answer.status === 200) {
            e.ok++;
            e.okCents += amount;
          } else if (answer.status === 402) await topUp(session, 20_000);
          else if (answer.status === 0 || answer.status === 503) {
            e.unknown++;
            e.unknownCents += amount;
          }
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
    },
    async verify(db) {
      const pairs = [...tally.values()];
      // A payer's purchases of a picture, less the upload price when the payer is its author.
      const { rows } = await db.query<{ username: string; picture_id: string; n: string; cents: string }>(
        `SELECT u.username, pp.picture_id, count(*) AS n, sum(pp.amount) AS cents
         FROM picture_purchases pp JOIN users u ON u.id = pp.user_id
         WHERE u.username = ANY($1) AND pp.picture_id = ANY($2)
           AND pp.id <> (SELECT min(id) FROM picture_purchases f WHERE f.picture_id = pp.picture_id)
         GROUP BY u.username, pp.picture_id`,
        [[...new Set(pairs.map((p) => p.username))], [...new Set(pairs.map((p) => p.pictureId))]],
      );
      const found = new Map(rows.map((r) => [`${r.username}/${r.picture_id}`, r]));
      const off = pairs.filter((p) => {
        const row = found.get(`${p.username}/${p.pictureId}`);
        const n = Number(row?.n ?? 0);
        const cents = Number(row?.cents ?? 0);
        return n < p.ok || n > p.ok + p.unknown || cents < p.okCents || cents > p.okCents + p.unknownCents;
      });
      const ackedFunds = pairs.reduce((s, p) => s + p.ok, 0);
      return [
        {
          name: 'every acknowledged fund is in the books, none twice',
          ok: off.length === 0,
          detail: `${ackedFunds} acknowledged over ${pairs.length} payer-picture pairs, ${off.length} outside [acknowledged, + unknown]${off.length ? `: ${JSON.stringify(off.slice(0, 3))}` : ''}`,
        },
      ];
    },
  };
}
