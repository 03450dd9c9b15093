import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConservation } from '../ledger/conservation';
import { availableBalance } from '../ledger/ledger';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp } from '../test/harness';
import { makePicture } from '../modules/pictures/test-helpers';

/** One validator setting for every route: a JSON body's types are what the client sent, never converted. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('strings where a body needs numbers', () => {
  it('are refused by the fund call as by the checkout, and charge nothing', async () => {
    const author = await makeUser(t.ctx, { balance: 1000 });
    const fan = await makeUser(t.ctx, { balance: 1000 });
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const browser = await signIn(t, fan.id);
    for (const body of [
      { imageId: String(pictureId), amount: '100' },
      { imageId: pictureId, amount: '100' },
      { imageId: String(pictureId), amount: 100 },
      { imageId: pictureId, amount: true },
      { imageId: pictureId, amount: [100] },
    ]) {
      const res = await browser.post('/api/payment/checkout-with-image-fund', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Array.isArray(res.json()), JSON.stringify(body)).toBe(true);
    }
    const checkout = await browser.post('/api/payment/checkout', { amount: '100' });
    expect(checkout.statusCode).toBe(400);
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(1000);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});

describe('numbers where a body needs strings', () => {
  it('are refused too: a username must be sent as text', async () => {
    const res = await t.client().post('/api/auth/register', {
      username: 12345678,
      password: 'secret123',
      email: 'n@example.test',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()[0].field).toBe('username');
  });

  it('except where the route says a number is fine: the verification link’s userId', async () => {
    const res = await t.client().post('/api/auth/verify-email', { userId: 999_999_999, secret: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([
      { field: 'secret', errorText: 'This verification link is not valid. Use the newest link we sent you.' },
    ]);
  });
});
