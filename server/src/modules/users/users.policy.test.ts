import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import { sqlRows } from '../../db/connection';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { itRefusesStrangers } from '../../test/policy-table';
import { makePicture } from '../pictures/test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Alice uploads a picture; Bob tries to wear it as his face. */
async function alicesPicture() {
  const alice = await makeUser(t.ctx, { balance: 1000 });
  const pictureId = await makePicture(t.ctx, alice.id, 100);
  const bob = await makeUser(t.ctx);
  const stranger = await signIn(t, bob.id);
  const snapshot = () => sqlRows(t.ctx.db, sql`SELECT profile_image_id FROM users WHERE id = ${bob.id}`);
  return { ids: { pictureId }, stranger, snapshot };
}

describe("users policy: another user's picture as one's face", () => {
  itRefusesStrangers(
    () => t,
    alicesPicture,
    (['PUT', 'PATCH'] as const).map((method) => ({
      route: `${method} /api/user/profile?imageId={id}`,
      request: ({ pictureId }: { pictureId: number }) => ({ method, url: `/api/user/profile?imageId=${pictureId}` }),
      status: 403 as const,
    })),
  );
});
