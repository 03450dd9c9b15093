import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { sqlRows, type Columns } from '../db/connection';
import type { users } from '../db/core.tables';
import { creditTopUp } from '../ledger/commands';
import { createAccount } from '../modules/auth/registration.service';
import { fundPicture, uploadPicture } from '../modules/pictures/pictures.commands';
import { imageWithExtras, refreshTrending, storeImage } from '../modules/pictures/pictures.service';
import type { Storage } from '../storage/storage';
import { demoImage } from './demo-images';
import { seedDemoChat } from './demo-chat';
import { seedDemoMarket } from './demo-market';

/** Demo accounts are named so nobody mistakes them for people: every one starts with this. */
export const DEMO_PREFIX = 'demo_';
const DEMO_USERS = ['ada', 'bo', 'cyd', 'dee', 'eli'].map((n) => `${DEMO_PREFIX}${n}`);
const DEMO_BALANCE = 200_000;
const SIZES: [number, number][] = [
  [720, 900],
  [720, 720],
  [900, 720],
  [720, 1280],
  [1280, 720],
  [960, 720],
];
const HOUR = 3_600_000;

export interface SeedOptions {
  pictures?: number;
  storage?: Storage;
}

/**
 * Fills an empty database with a small, clearly marked demo (docs/product.md#operations): a few demo_ users with money,
 * pictures drawn on the spot with DEMO across them, uploaded and funded over the last three days, so a newcomer sees
 * a living wall, a market with a year of trades (demo-market.ts), and a chat room where they talk with the letters
 * they found (demo-chat.ts). Money moves through the ledger like any other, from the card account, so the books
 * balance.
 */
export async function seedDemoIfEmpty(ctx: AppContext, opts: SeedOptions = {}): Promise<boolean> {
  const storage = opts.storage ?? ctx.storage;
  const userIds = await ctx.transact(async (work) => {
    // Two instances starting together: one seeds, the other finds users and leaves.
    await work.tx.execute(sql`SELECT pg_advisory_xact_lock(727276)`);
    const [any] = await sqlRows(work.tx, sql<Columns<typeof users, 'id'>>`SELECT id FROM users LIMIT 1`);
    if (any) return undefined;
    const ids: number[] = [];
    for (const username of DEMO_USERS) {
      const created = await createAccount(work.tx, { username, email: null, emailVerified: true });
      if (!('id' in created)) throw new Error(`demo user ${username} clashed on an empty database`);
      await work.tx.execute(sql`UPDATE users SET first_login = false WHERE id = ${created.id}`);
      await creditTopUp(work, created.id, DEMO_BALANCE, `demo-seed-${created.id}`);
      ids.push(created.id);
    }
    return ids;
  });
  if (!userIds) return false;

  let seed = 20_260_301;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const dollars = (max: number) => (1 + Math.floor(random() * random() * max)) * 100;
  const now = ctx.now().getTime();
  const count = opts.pictures ?? 30;

  type Step = { at: number; run: () => Promise<void> };
  const steps: Step[] = [];
  const pictureIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const [width, height] = SIZES[i % SIZES.length]!;
    // With its variants and placeholder, as an upload stores it (docs/decisions.md "Issue 28, item 4").
    const image = await imageWithExtras(await demoImage(width, height, random));
    const key = await storeImage(storage, image);
    const author = pick(userIds);
    const uploadedAt = now - 72 * HOUR + Math.floor(random() * 70 * HOUR);
    const price = dollars(20);
    steps.push({
      at: uploadedAt,
      run: async () => {
        const id = await ctx.transact((work) =>
          uploadPicture(work, new Date(uploadedAt), author, {
            amount: price,
            title: `Demo picture ${i + 1}`,
            key,
            width,
            height,
            variantWidths: image.variantWidths,
            placeholder: image.placeholder,
          }),
        );
        pictureIds[i] = id;
      },
    });
    const fundings = 1 + Math.floor(random() * 5);
    for (let f = 0; f < fundings; f++) {
      const at = uploadedAt + Math.floor(random() * (now - uploadedAt));
      const payer = pick(userIds);
      const amount = dollars(15);
      steps.push({
        at,
        run: async () => {
          await ctx.transact((work) =>
            fundPicture(work, new Date(at), { userId: payer, pictureId: pictureIds[i]!, amount }),
          );
        },
      });
    }
  }
  // In time order, so each picture's purchases are recorded as they would have happened.
  steps.sort((a, b) => a.at - b.at);
  for (const step of steps) await step.run();
  // Faces for the cards: each demo user wears their first picture.
  await ctx.db.execute(
    sql`UPDATE users u SET profile_image_id = (SELECT min(id) FROM pictures WHERE author_id = u.id)
        WHERE u.id IN (${sql.join(
          userIds.map((id) => sql`${id}::bigint`),
          sql`, `,
        )})`,
  );
  await refreshTrending(ctx.db, ctx.now());
  await seedDemoMarket(ctx, userIds, random);
  const messages = await seedDemoChat(ctx, userIds, random);
  ctx.log.info({ users: userIds.length, pictures: count, messages }, 'seeded the demo wall');
  return true;
}
