import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PushPreferences } from '../../../../common/api/push';
import { MAX_PUSH_DEVICES, PUSH_TYPES, type PushMessage } from '../../../../common/push';
import type { AppContext } from '../../context';
import { sqlRows } from '../../db/connection';
import { pushOutboxJob } from '../../jobs/push-outbox.job';
import { runJob } from '../../jobs/runner';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { makePicture } from '../pictures/test-helpers';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { PUSH_TEXT } from './push-rules';
import { PUSH_ANSWER } from './push.routes';
import { queuePush, settlePushes, vapidOf } from './push.service';
import { keepVapid, queuedFor } from './push.repository';

/*
 * Web Push, end to end (docs/product.md#push): the key, a device's subscription, the switches, and a push queued in
 * an event's transaction reaching a push server this test runs itself, which checks the VAPID signature and decrypts
 * the message with the device's own keys (RFC 8291), as a browser's push service and service worker would.
 */

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(body: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

/** The app's clock runs with the real one, moved forward by the tests (a retry's wait passes at once). */
let offset = 0;
const now = () => new Date(Date.now() + offset);

// The push server: every POST is kept; each device's path answers its status (201 unless told), or never.

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}
const received: Received[] = [];
const answers = new Map<string, number | 'never'>();
const hanging = new Set<http.ServerResponse>();
let pushServer: http.Server;
let origin: string;

let t: TestApp;

beforeAll(async () => {
  pushServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      const answer = answers.get(path) ?? 201;
      if (answer === 'never') hanging.add(res);
      else res.writeHead(answer).end(answer >= 400 ? 'no' : '');
    });
  });
  await new Promise<void>((resolve) => pushServer.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(pushServer.address() as AddressInfo).port}`;
  t = await startTestApp({ env: { PUSH_ALLOW_HTTP: '1', MAIL_FROM: 'support@wall.example' }, now });
});
/** A test's silent devices answer at last, so no try of theirs is left waiting into the next test. */
afterEach(async () => {
  for (const [path, answer] of answers) if (answer === 'never') answers.delete(path);
  for (const res of hanging) res.writeHead(201).end();
  hanging.clear();
  await settlePushes(t.ctx);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => pushServer.close(resolve));
});

// Devices: a browser's subscription keys, kept to decrypt what arrives.

let devices = 0;
interface Device {
  endpoint: string;
  path: string;
  ecdh: ECDH;
  body: { endpoint: string; keys: { p256dh: string; auth: string } };
}
function device(): Device {
  const ecdh = createECDH('prime256v1');
  const p256dh = ecdh.generateKeys().toString('base64url');
  const path = `/push/${process.pid}-${++devices}`;
  const endpoint = `${origin}${path}`;
  return { endpoint, path, ecdh, body: { endpoint, keys: { p256dh, auth: randomBytes(16).toString('base64url') } } };
}

interface Someone {
  id: number;
  client: TestClient;
}
async function someone(): Promise<Someone> {
  const user = await makeUser(t.ctx);
  return { id: user.id, client: await signIn(t, user.id) };
}

const subscribe = (client: TestClient, d: Device | Record<string, unknown>) =>
  client.post('/api/push/subscriptions', 'ecdh' in d ? (d as Device).body : d);
const unsubscribe = (client: TestClient, endpoint: string) =>
  client.request({ method: 'DELETE', url: '/api/push/subscriptions', payload: { endpoint } });
const setPreferences = (client: TestClient, prefs: object) =>
  client.request({ method: 'PUT', url: '/api/push/preferences', payload: prefs });

const message = (text: string, type: PushMessage['type'] = 'COMMENT'): PushMessage => ({
  type,
  title: 'New comment',
  body: text,
  url: '/picture/1',
});

/** Queues a push as another module does, in a transaction of its own; answers when it committed. */
async function queue(userIds: number | number[], m: PushMessage): Promise<number> {
  await t.ctx.transact((work) => queuePush(work, userIds, m, t.ctx.now()));
  return Date.now();
}

const subscriptionsOf = (userId: number) =>
  sqlRows(
    t.ctx.db,
    sql<{ endpoint: string; p256dh: string; session_hash: string }>`SELECT endpoint, p256dh, session_hash
        FROM push_subscriptions WHERE user_id = ${userId} ORDER BY id`,
  );
const outbox = (endpoint: string) =>
  sqlRows(
    t.ctx.db,
    sql<{ attempts: number; next_attempt_at: Date | string; last_error: string | null }>`SELECT o.attempts,
          o.next_attempt_at, o.last_error
        FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id WHERE s.endpoint = ${endpoint}`,
  );
const arrivedAt = (d: Device) => received.filter((r) => r.path === d.path);

/** Waits until `check` holds (every 50 ms), or fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the push job now (after the timer's run, if one holds the lock) and waits for its sends. */
async function flush(ctx: AppContext = t.ctx): Promise<void> {
  while (!(await runJob(ctx, pushOutboxJob))) await new Promise((r) => setTimeout(r, 20));
  await settlePushes(ctx);
}

/** What a push server checks (RFC 8292), then the service worker's decryption (RFC 8291). */
async function open(d: Device, push: Received): Promise<PushMessage> {
  const { publicKey } = (await t.client().get('/api/push/key')).json<{ publicKey: string }>();
  const auth = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(push.headers.authorization ?? '');
  expect(auth, push.headers.authorization).not.toBeNull();
  expect(auth![2]).toBe(publicKey);
  const point = Buffer.from(publicKey, 'base64url');
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    'ES256',
  );
  const { payload } = await jwtVerify(auth![1]!, key, { audience: origin, algorithms: ['ES256'] });
  expect(payload.sub).toBe('mailto:support@wall.example');
  expect(payload.exp! - Date.now() / 1000).toBeLessThanOrEqual(24 * 3600);
  expect(push.headers['content-encoding']).toBe('aes128gcm');
  expect(Number(push.headers.ttl)).toBeGreaterThan(0);
  expect(Number(push.headers.ttl)).toBeLessThanOrEqual(24 * 3600);
  const plain = ece.decrypt(push.body, { version: 'aes128gcm', privateKey: d.ecdh, authSecret: d.body.keys.auth });
  return JSON.parse(plain.toString('utf8')) as PushMessage;
}

describe('GET /api/push/key', () => {
  it('answers the VAPID public key to anybody, the same each time, kept in the database', async () => {
    const res = await t.client().get('/api/push/key');
    expect(res.statusCode).toBe(200);
    const { publicKey } = res.json<{ publicKey: string }>();
    const point = Buffer.from(publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(0x04);
    expect((await t.client().get('/api/push/key')).json()).toEqual({ publicKey });
    const kept = await sqlRows(t.ctx.db, sql<{ public_key: string }>`SELECT public_key FROM push_vapid`);
    expect(kept).toEqual([{ public_key: publicKey }]);
  });

  it('keeps the first pair offered: an instance starting beside another reads the winner', async () => {
    const { publicKey } = await vapidOf(t.ctx);
    const other = await keepVapid(t.ctx.db, { publicKey: 'Bother', privateKey: 'other' });
    expect(other.public_key).toBe(publicKey);
  });

  it("takes the environment's pair when it gives one, without the database", async () => {
    const pair = { publicKey: 'B'.padEnd(87, 'A'), privateKey: 'A'.repeat(43) };
    const ctx = { ...t.ctx, db: {} as AppContext['db'], config: { ...t.ctx.config, vapidKeys: pair } };
    expect(await vapidOf(ctx)).toEqual({ ...pair, subject: 'mailto:support@wall.example' });
  });
});

describe('POST and DELETE /api/push/subscriptions', () => {
  it('refuses a visitor on every signed-in call', async () => {
    const d = device();
    const visitor = t.client();
    expect((await subscribe(visitor, d)).statusCode).toBe(401);
    expect((await unsubscribe(visitor, d.endpoint)).statusCode).toBe(401);
    expect((await visitor.get('/api/push/preferences')).statusCode).toBe(401);
    const allOn = Object.fromEntries(PUSH_TYPES.map((type) => [type, true]));
    expect((await setPreferences(visitor, allOn)).statusCode).toBe(401);
  });

  it('subscribes once per endpoint: the same endpoint again renews its keys and session', async () => {
    const ann = await someone();
    const d = device();
    const first = await subscribe(ann.client, d);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ message: PUSH_ANSWER.on });
    const renewed = { ...d.body, keys: { ...d.body.keys, p256dh: device().body.keys.p256dh } };
    const again = await ann.client.post('/api/push/subscriptions', renewed);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await subscriptionsOf(ann.id)).map((s) => [s.endpoint, s.p256dh])).toEqual([
      [d.endpoint, renewed.keys.p256dh],
    ]);
    // From another session (the same browser signed in again): the device now follows that session.
    const later = await signIn(t, ann.id);
    expect((await subscribe(later, d)).statusCode).toBe(200);
    expect(await subscriptionsOf(ann.id)).toHaveLength(1);
  });

  it('moves an endpoint to the user now signed in on it, without what was queued for the one before', async () => {
    const [ann, ben] = [await someone(), await someone()];
    const d = device();
    answers.set(d.path, 'never');
    await subscribe(ann.client, d);
    await queue(ann.id, message("for Ann's eyes"));
    expect(await queuedFor(t.ctx.db, ann.id)).toHaveLength(1);
    expect((await subscribe(ben.client, d)).statusCode).toBe(200);
    expect(await subscriptionsOf(ann.id)).toEqual([]);
    expect(await subscriptionsOf(ben.id)).toHaveLength(1);
    expect(await queuedFor(t.ctx.db, ben.id)).toEqual([]);
  });

  it('refuses an endpoint that is not https:// (http:// only on this machine here) and keys that are not keys', async () => {
    const ann = await someone();
    const d = device();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...d.body, endpoint: 'http://push.example/x' }, 'endpoint', PUSH_TEXT.endpoint],
      [{ ...d.body, endpoint: 'ftp://127.0.0.1/x' }, 'endpoint', PUSH_TEXT.endpoint],
      [{ ...d.body, endpoint: 'nonsense' }, 'endpoint', PUSH_TEXT.endpoint],
      [{ ...d.body, keys: { ...d.body.keys, p256dh: 'AAAA' } }, 'keys.p256dh', PUSH_TEXT.p256dh],
      [
        { ...d.body, keys: { ...d.body.keys, auth: randomBytes(8).toString('base64url') } },
        'keys.auth',
        PUSH_TEXT.auth,
      ],
    ];
    for (const [body, field, errorText] of cases) {
      const res = await subscribe(ann.client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual([{ field, errorText }]);
    }
    const noKeys = await subscribe(ann.client, { endpoint: d.endpoint });
    expect(noKeys.statusCode).toBe(400);
    expect(noKeys.json<{ field: string }[]>()[0]).toMatchObject({ field: expect.any(String) });
    expect(await subscriptionsOf(ann.id)).toEqual([]);
    // https:// anywhere is a push service.
    expect((await subscribe(ann.client, { ...d.body, endpoint: 'https://push.example/ann' })).statusCode).toBe(200);
    await unsubscribe(ann.client, 'https://push.example/ann');
  });

  it(`keeps a user's ${MAX_PUSH_DEVICES} newest devices`, async () => {
    const ann = await someone();
    const all = Array.from({ length: MAX_PUSH_DEVICES + 1 }, device);
    for (const d of all) {
      offset += 1; // each a moment after the one before
      expect((await subscribe(ann.client, d)).statusCode).toBe(200);
    }
    const kept = (await subscriptionsOf(ann.id)).map((s) => s.endpoint);
    expect(kept).toHaveLength(MAX_PUSH_DEVICES);
    expect(kept).not.toContain(all[0]!.endpoint);
    expect(kept).toContain(all.at(-1)!.endpoint);
  });

  it("removes the caller's own device only, and answers 200 for one that is not (or no longer) theirs", async () => {
    const [ann, ben] = [await someone(), await someone()];
    const d = device();
    await subscribe(ann.client, d);
    const stranger = await unsubscribe(ben.client, d.endpoint);
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json()).toEqual({ message: PUSH_ANSWER.off });
    expect(await subscriptionsOf(ann.id)).toHaveLength(1);
    expect((await unsubscribe(ann.client, d.endpoint)).statusCode).toBe(200);
    expect(await subscriptionsOf(ann.id)).toEqual([]);
    expect((await unsubscribe(ann.client, d.endpoint)).json()).toEqual({ message: PUSH_ANSWER.off });
    expect((await unsubscribe(ann.client, '')).statusCode).toBe(400);
  });
});

describe('GET and PUT /api/push/preferences', () => {
  it('has every type on by default, takes the whole set, and a type switched off queues nothing', async () => {
    const ann = await someone();
    const allOn = Object.fromEntries(PUSH_TYPES.map((type) => [type, true])) as PushPreferences;
    const got = await ann.client.get('/api/push/preferences');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(allOn);

    const chosen = { ...allOn, COMMENT: false, CHAT: false };
    const put = await setPreferences(ann.client, chosen);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual(chosen);
    expect((await ann.client.get('/api/push/preferences')).json()).toEqual(chosen);
    expect((await t.client().get('/api/push/preferences')).statusCode).toBe(401);

    const { COMMENT: _, ...partial } = chosen;
    expect((await setPreferences(ann.client, partial)).statusCode).toBe(400);
    expect((await setPreferences(ann.client, { ...chosen, COMMENT: 'no' })).statusCode).toBe(400);
    expect((await ann.client.get('/api/push/preferences')).json()).toEqual(chosen);

    const d = device();
    answers.set(d.path, 'never');
    await subscribe(ann.client, d);
    await queue(ann.id, message('muted', 'COMMENT'));
    expect(await queuedFor(t.ctx.db, ann.id)).toEqual([]);
    await queue(ann.id, message('on', 'REACTION'));
    expect((await queuedFor(t.ctx.db, ann.id)).map((q) => JSON.parse(q.payload) as PushMessage)).toEqual([
      message('on', 'REACTION'),
    ]);

    expect((await setPreferences(ann.client, allOn)).json()).toEqual(allOn);
    expect(await sqlRows(t.ctx.db, sql`SELECT 1 FROM push_muted WHERE user_id = ${ann.id}`)).toEqual([]);
  });
});

describe('queuePush', () => {
  it('queues nothing for a device whose session expired (that browser is signed out)', async () => {
    const ann = await makeUser(t.ctx);
    const client = await signIn(t, ann.id);
    const d = device();
    answers.set(d.path, 'never');
    await subscribe(client, d);
    await t.ctx.db.execute(
      sql`UPDATE sessions SET expires_at = ${new Date(now().getTime() - 1000)}
          WHERE token_hash = (SELECT session_hash FROM push_subscriptions WHERE endpoint = ${d.endpoint})`,
    );
    await queue(ann.id, message('nobody home'));
    expect(await queuedFor(t.ctx.db, ann.id)).toEqual([]);
  });
});

describe('sending (the push job)', () => {
  it('delivers a queued push within 5 s of the commit, signed and encrypted to each device', async () => {
    const ann = await someone();
    const [phone, laptop] = [device(), device()];
    await subscribe(ann.client, phone);
    await subscribe(ann.client, laptop);
    const m = message('Ben: nice picture!');
    const committed = await queue(ann.id, m);
    await until(() => arrivedAt(phone).length > 0 && arrivedAt(laptop).length > 0, 5_000, 'both devices');
    for (const d of [phone, laptop]) {
      const [push] = arrivedAt(d);
      expect(push!.at - committed).toBeLessThan(5_000);
      expect(await open(d, push!)).toEqual(m);
    }
    await until(async () => (await queuedFor(t.ctx.db, ann.id)).length === 0, 2_000, 'the outbox emptied');
  });

  it('drops a device the push service no longer knows (410), and what was queued for it', async () => {
    const ann = await someone();
    const [gone, kept] = [device(), device()];
    answers.set(gone.path, 410);
    await subscribe(ann.client, gone);
    await subscribe(ann.client, kept);
    await queue(ann.id, message('one'));
    await until(() => arrivedAt(gone).length === 1 && arrivedAt(kept).length === 1, 5_000, 'both tries');
    await until(async () => (await subscriptionsOf(ann.id)).length === 1, 2_000, 'the device dropped');
    expect((await subscriptionsOf(ann.id)).map((s) => s.endpoint)).toEqual([kept.endpoint]);
    await queue(ann.id, message('two'));
    await until(() => arrivedAt(kept).length === 2, 5_000, 'the second push');
    expect(arrivedAt(gone)).toHaveLength(1);
  });

  it('tries again after a failure (500), 5 s later, then 10 s, and delivers once the push service is back', async () => {
    const ann = await someone();
    const d = device();
    answers.set(d.path, 500);
    await subscribe(ann.client, d);
    const m = message('try, try again');
    await queue(ann.id, m);
    await until(() => arrivedAt(d).length === 1, 5_000, 'the first try');
    await until(async () => (await outbox(d.endpoint))[0]?.attempts === 1, 2_000, 'the try counted');
    const [row] = await outbox(d.endpoint);
    expect(row!.last_error).toBe('HTTP 500: no');
    const wait = new Date(row!.next_attempt_at).getTime() - now().getTime();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(5_000);
    // Not before its time.
    await flush();
    expect(arrivedAt(d)).toHaveLength(1);

    offset += 5_000;
    await flush();
    expect(arrivedAt(d)).toHaveLength(2);
    const [second] = await outbox(d.endpoint);
    expect(second!.attempts).toBe(2);
    const longer = new Date(second!.next_attempt_at).getTime() - now().getTime();
    expect(longer).toBeGreaterThan(6_000);
    expect(longer).toBeLessThanOrEqual(10_000);

    answers.set(d.path, 201);
    offset += 10_000;
    await flush();
    expect(arrivedAt(d)).toHaveLength(3);
    expect(await open(d, arrivedAt(d)[2]!)).toEqual(m);
    expect(await outbox(d.endpoint)).toEqual([]);
  });

  it('drops a push unsent once it expires', async () => {
    const ann = await someone();
    const d = device();
    answers.set(d.path, 500);
    await subscribe(ann.client, d);
    await queue(ann.id, message('too late'));
    await until(async () => (await outbox(d.endpoint))[0]?.attempts === 1, 5_000, 'the first failure');
    offset += 25 * 3_600_000; // past the day a push may wait
    await flush();
    expect(await outbox(d.endpoint)).toEqual([]);
    expect(arrivedAt(d)).toHaveLength(1);
    expect(await subscriptionsOf(ann.id)).toHaveLength(1);
  });

  it('a push service that never answers delays no other device', async () => {
    const [ann, ben] = [await someone(), await someone()];
    const [stuck, fine] = [device(), device()];
    answers.set(stuck.path, 'never');
    await subscribe(ann.client, stuck);
    await subscribe(ben.client, fine);
    await queue(ann.id, message('into the void'));
    await until(() => arrivedAt(stuck).length === 1, 5_000, 'the stuck try');
    const committed = await queue(ben.id, message('meanwhile'));
    await until(() => arrivedAt(fine).length === 1, 5_000, "the other device's push");
    expect(arrivedAt(fine)[0]!.at - committed).toBeLessThan(5_000);
  });

  it("signing out removes that session's device and nothing more reaches it; the user's other devices stay", async () => {
    const ann = await makeUser(t.ctx);
    const [here, there] = [await signIn(t, ann.id), await signIn(t, ann.id)];
    const [phone, laptop] = [device(), device()];
    await subscribe(here, phone);
    await subscribe(there, laptop);
    const out = await here.post('/api/auth/logout');
    expect(out.statusCode).toBe(200);
    expect((await subscriptionsOf(ann.id)).map((s) => s.endpoint)).toEqual([laptop.endpoint]);
    await queue(ann.id, message('after sign-out'));
    await until(() => arrivedAt(laptop).length === 1, 5_000, 'the push to the other device');
    await flush();
    expect(arrivedAt(phone)).toEqual([]);
    // Signed out, the device cannot be put back or taken off under that session.
    expect((await subscribe(here, phone)).statusCode).toBe(401);
  });
});

describe('the whole path, as an outside check drives it', () => {
  it("another user's comment reaches the subscriber's device decrypted within 5 s; nothing when off, nothing signed out", async () => {
    const ann = await makeUser(t.ctx, { balance: 1_000 });
    const annClient = await signIn(t, ann.id);
    const ben = await makeUser(t.ctx, { balance: 10_000 });
    const benClient = await signIn(t, ben.id);
    for (const l of 'NICE') await giveItems(t.ctx, ben.id, `COMMON_LETTER_${l}`, 3);
    const pictureId = await makePicture(t.ctx, ann.id, 100);
    const phone = device();
    expect((await subscribe(annClient, phone)).statusCode).toBe(200);
    const comment = async () => {
      const res = await benClient.post('/api/picture/comment', { pictureId, comment: 'nice' });
      expect(res.statusCode, res.body).toBe(200);
      return Date.now();
    };

    const sent = await comment();
    await until(() => arrivedAt(phone).length === 1, 5_000, 'the comment push');
    expect(arrivedAt(phone)[0]!.at - sent).toBeLessThan(5_000);
    const push = await open(phone, arrivedAt(phone)[0]!);
    expect(push).toMatchObject({ type: 'COMMENT', url: expect.stringContaining(String(pictureId)) });
    expect(push.body).toContain(ben.username);

    const off = Object.fromEntries(PUSH_TYPES.map((type) => [type, type !== 'COMMENT']));
    expect((await setPreferences(annClient, off)).statusCode).toBe(200);
    await comment();
    await flush();
    expect(arrivedAt(phone)).toHaveLength(1);

    expect((await setPreferences(annClient, { ...off, COMMENT: true })).statusCode).toBe(200);
    expect((await annClient.post('/api/auth/logout')).statusCode).toBe(200);
    await comment();
    await flush();
    expect(arrivedAt(phone)).toHaveLength(1);
  });
});
