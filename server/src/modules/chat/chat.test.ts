import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, MessageSent } from '../../../../common/api/chat';
import { MESSAGES_PER_STEP } from '../../../../common/chat';
import { itemOf } from '../../../../common/items';
import { chatCost } from '../../../../common/writing';
import { sqlRows, type Columns } from '../../db/connection';
import type { chatMessages } from './chat.tables';
import type { journalEntries } from '../../db/core.tables';
import { runJob } from '../../jobs/runner';
import { chatRoomJob } from '../../jobs/chat-room.job';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { LiveTestClient, settle, sleep } from '../../live/live-test-client';

/** The app's clock, moved by the tests: the price looks back one minute on it. */
let clock = new Date('2026-11-23T10:00:00.000Z');
const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ now: () => clock, config: { chatBaseUnitPrice: 2 } });
});
afterAll(() => t.close());

interface Chatter {
  id: number;
  username: string;
  client: TestClient;
}

/** A user owning the letters of "hello world" (8 distinct letters: space needs 5). */
async function chatter(balance = 1_000, letters = 'HELOWRD'): Promise<Chatter> {
  const user = await makeUser(t.ctx, { balance });
  for (const l of new Set(letters)) await giveItems(t.ctx, user.id, `COMMON_LETTER_${l}`, 1);
  return { ...user, client: await signIn(t, user.id) };
}

const send = (u: Chatter, message: unknown, sendAmount: unknown = 1_000, headers?: Record<string, string>) =>
  u.client.post('/api/user/message', { message, sendAmount, balance: 0 }, headers);
const unitPrice = async () =>
  (await t.client().get('/api/chat-room/unit-price')).json<{ unitPrice: number }>().unitPrice;
const last50 = async () => (await t.client().get('/api/last-50-messages')).json<ChatMessage[]>();
const balance = (u: Chatter) => availableBalance(t.ctx.db, u.id);
const messageCount = async () =>
  (await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM chat_messages`))[0]!.n;
const chatEntries = async (u: Chatter) =>
  (
    await sqlRows(
      t.ctx.db,
      sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'CHAT_MESSAGE' AND user_id = ${u.id}`,
    )
  )[0]!.n;
const booksBalance = async () => expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
/** Lets the last minute's messages age out, so each test starts from the base price. */
const calm = () => tick(61_000);

describe('sending a chat message', () => {
  it('charges the cost the sender saw, stores the message and shows it in the room', async () => {
    calm();
    const alice = await chatter();
    expect(await unitPrice()).toBe(2);
    const res = await send(alice, 'hello world', chatCost('hello world', 2));
    expect(res.statusCode).toBe(200);
    const sent = res.json<MessageSent>();
    expect(sent.cost).toBe(4); // 11 characters: (1 + 1) × 2¢
    expect(sent.balance).toBe(996);
    expect(await balance(alice)).toBe(996);
    expect(sent.message).toMatchObject({
      senderId: alice.id,
      username: alice.username,
      profilePicture: null,
      message: 'hello world',
      time: clock.toISOString(),
    });
    expect((await last50()).at(-1)).toEqual(sent.message);
    const [entry] = await sqlRows(
      t.ctx.db,
      sql<
        Columns<typeof journalEntries, 'resource_id'>
      >`SELECT resource_id FROM journal_entries WHERE kind = 'CHAT_MESSAGE' AND user_id = ${alice.id}`,
    );
    expect(entry!.resource_id).toBe(String(sent.message.id));
    await booksBalance();
  });

  it('refuses a character the sender does not own with the hint, and charges nothing', async () => {
    calm();
    const bob = await chatter();
    const before = await messageCount();
    const res = await send(bob, 'hello z');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'message', errorText: `You don't own ${itemOf('COMMON_LETTER_Z')!.name}` }]);
    const upper = await send(bob, 'Hello');
    expect(upper.json()).toEqual([
      { field: 'message', errorText: 'At least 10 letters required to write in uppercase' },
    ]);
    expect(await balance(bob)).toBe(1_000);
    expect(await messageCount()).toBe(before);
  });

  it('refuses an empty message, one of 501 characters and wrong types', async () => {
    const carol = await chatter(1_000, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    const empty = await send(carol, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()[0].field).toBe('message');
    expect((await send(carol, '   ')).statusCode).toBe(400);
    const long = await send(carol, 'a'.repeat(501));
    expect(long.statusCode).toBe(400);
    expect(long.json()[0]).toMatchObject({ field: 'message', errorText: 'At most 500 characters' });
    expect((await send(carol, 'a'.repeat(500), 10_000)).statusCode).toBe(200);
    for (const [message, sendAmount] of [
      [12, 10],
      ['hi', '10'],
      ['hi', -1],
      ['hi', 1.5],
      [null, 10],
    ]) {
      expect((await send(carol, message, sendAmount)).statusCode, JSON.stringify([message, sendAmount])).toBe(400);
    }
    expect((await carol.client.post('/api/user/message', { sendAmount: 10 })).statusCode).toBe(400);
  });

  it('refuses a character of 3,903 combining marks ("Zalgo") in words and charges nothing, even with every letter', async () => {
    calm();
    const dave = await chatter(1_000, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    const before = await messageCount();
    const zalgo = 'a' + '\u0338\u0322\u0334'.repeat(1301);
    const res = await send(dave, zalgo, 1);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'message', errorText: 'At most 2 accent marks on one character' }]);
    expect(await balance(dave)).toBe(1_000);
    expect(await messageCount()).toBe(before);
    // Two marks on a letter are an accented letter, which all 26 letters may write.
    const accented = await send(dave, 'cafe\u0301 e\u0301\u0303', chatCost('cafe\u0301 e\u0301\u0303', 2));
    expect(accented.statusCode, accented.body).toBe(200);
  });

  it('answers 401 to a visitor', async () => {
    const res = await t.client().post('/api/user/message', { message: 'hello', sendAmount: 10, balance: 0 });
    expect(res.statusCode).toBe(401);
  });

  it('answers 402 with what is missing when one cent short, and changes nothing', async () => {
    calm();
    const dave = await chatter(3); // "hello world" costs 4¢ at a 2¢ unit
    const before = await messageCount();
    const res = await send(dave, 'hello world');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ missing: 1 });
    expect(await balance(dave)).toBe(3);
    expect(await messageCount()).toBe(before);
    expect(await chatEntries(dave)).toBe(0);
    await booksBalance();
  });

  it('charges once for a replay with the same Idempotency-Key and answers it the same', async () => {
    calm();
    const erin = await chatter();
    const before = await messageCount();
    const headers = { 'idempotency-key': 'chat-replay-1' };
    const first = await send(erin, 'hello', 10, headers);
    const again = await send(erin, 'hello', 10, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(erin)).toBe(998);
    expect(await messageCount()).toBe(before + 1);
    expect(await chatEntries(erin)).toBe(1);
    await booksBalance();
  });
});

describe('the unit price', () => {
  it('rises with the last minute’s messages: a send above the cost seen is 409 with the new price, charging nothing', async () => {
    calm();
    const fay = await chatter(10_000);
    const seen = await unitPrice();
    expect(seen).toBe(2);
    for (let i = 0; i < MESSAGES_PER_STEP; i++) {
      expect((await send(fay, 'hello', seen)).statusCode).toBe(200);
      tick(1_000);
    }
    expect(await unitPrice()).toBe(4);
    const before = await balance(fay);
    const stale = await send(fay, 'hello', seen);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ newPrice: 4 });
    expect(await balance(fay)).toBe(before);
    // The user resends at the new price.
    expect((await send(fay, 'hello', 4)).statusCode).toBe(200);
    expect(await balance(fay)).toBe(before - 4);
  });

  it('falls back as the room calms, and the room job broadcasts the fall', async () => {
    const heard: number[] = [];
    const off = t.ctx.bus.subscribe((e) => {
      if (e.ch === 'chat' && e.t === 'newMessagePrice') heard.push(e.m.newPrice);
    });
    try {
      expect(await unitPrice()).toBeGreaterThan(2);
      tick(61_000);
      expect(await unitPrice()).toBe(2);
      expect(await runJob(t.ctx, chatRoomJob)).toBe(true);
      expect(heard.at(-1)).toBe(2);
      const count = heard.length;
      expect(await runJob(t.ctx, chatRoomJob)).toBe(true); // no change: nothing new broadcast
      expect(heard.length).toBe(count);
    } finally {
      off();
    }
  });

  it('broadcasts the message and a risen price on the chat channel', async () => {
    calm();
    await runJob(t.ctx, chatRoomJob);
    const gus = await chatter(10_000);
    const heard: { t: string; m: unknown }[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'chat' && heard.push({ t: e.t, m: e.m }));
    try {
      for (let i = 0; i < MESSAGES_PER_STEP; i++) await send(gus, 'hello', 100);
      await new Promise((r) => setTimeout(r, 20));
      expect(heard.filter((h) => h.t === 'textMessage')).toHaveLength(MESSAGES_PER_STEP);
      expect(heard.filter((h) => h.t === 'newMessagePrice')).toEqual([{ t: 'newMessagePrice', m: { newPrice: 4 } }]);
    } finally {
      off();
    }
  });
});

describe('the room', () => {
  it('lists the newest 50 messages, oldest first', async () => {
    calm();
    const hal = await chatter(100_000);
    for (let i = 0; i < 55; i++) {
      expect((await send(hal, i % 2 ? 'hello' : 'world', 1_000)).statusCode).toBe(200);
    }
    const list = await last50();
    expect(list).toHaveLength(50);
    const ids = list.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const [newest] = await sqlRows(
      t.ctx.db,
      sql<Columns<typeof chatMessages, 'id'>>`SELECT max(id)::int AS id FROM chat_messages`,
    );
    expect(ids.at(-1)).toBe(newest!.id);
  });

  it('counts nobody online when no socket follows the room', async () => {
    const ivy = await chatter();
    expect((await ivy.client.get('/api/chat-room/online-users-without-me')).json()).toEqual({ value: 0 });
    expect((await t.client().get('/api/chat-room/online-users-without-me')).json()).toEqual({ value: 0 });
  });

  it('counts signed-in users with the room open once each, whatever their tabs, and tells the others what they missed', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const tabs: LiveTestClient[] = [];
    const tab = async (u?: Chatter, channels = ['chat']) => {
      const c = await LiveTestClient.open(base, { cookie: u?.client.cookieHeader() });
      tabs.push(c);
      for (const ch of channels) c.subscribe(ch);
      await settle(c);
      return c;
    };
    const count = async (c: LiveTestClient, n: number) => {
      for (
        let i = 0;
        i < 60 &&
        c
          .on('chat')
          .filter((f) => f.t === 'onlineUserCount')
          .at(-1)?.m.count !== n;
        i++
      )
        await sleep(50);
      expect(
        c
          .on('chat')
          .filter((f) => f.t === 'onlineUserCount')
          .at(-1)?.m.count,
      ).toBe(n);
    };
    try {
      calm();
      const [jan, kim, lee] = [await chatter(), await chatter(), await chatter()];
      const visitor = await tab();
      // The snapshot: read from the database after the subscribe, so it may come after the pong.
      await visitor.next((f) => f.ch === 'chat', 5000, 0);
      expect(visitor.on('chat')[0]).toMatchObject({ t: 'newMessagePrice' });
      const janTab = await tab(jan);
      await tab(kim);
      const kim2 = await tab(kim);
      await count(visitor, 2);
      expect((await jan.client.get('/api/chat-room/online-users-without-me')).json()).toEqual({ value: 1 });
      const leeTab = await tab(lee, ['notification']);

      expect((await send(jan, 'hello', 100)).statusCode).toBe(200);
      const missed = await leeTab.next((f) => f.ch === 'notification');
      const total = await messageCount();
      expect(missed).toEqual({ ch: 'notification', t: 'missedMessage', m: { value: total } });
      expect(janTab.on('notification')).toEqual([]);

      kim2.close();
      await sleep(300);
      expect((await jan.client.get('/api/chat-room/online-users-without-me')).json()).toEqual({ value: 1 });
      janTab.close();
      await count(visitor, 1);
    } finally {
      for (const c of tabs) c.close();
    }
  });

  it('answers how many messages a user missed: all of them at first, none while the room is open, then the new ones', async () => {
    expect((await t.client().get('/api/chat-room/missed-messages')).statusCode).toBe(401);
    // The test above may have started listening already.
    const address = t.app.server.address();
    const base =
      address && typeof address === 'object'
        ? `http://127.0.0.1:${address.port}`
        : await t.app.listen({ port: 0, host: '127.0.0.1' });
    calm();
    const [mo, ned] = [await chatter(), await chatter()];
    const missed = async (u: Chatter) =>
      (await u.client.get('/api/chat-room/missed-messages')).json<{ value: number }>();
    expect(await missed(mo)).toEqual({ value: await messageCount() });

    const room = await LiveTestClient.open(base, { cookie: mo.client.cookieHeader() });
    try {
      room.subscribe('chat');
      await settle(room);
      expect((await send(ned, 'hello', 100)).statusCode).toBe(200);
      expect(await missed(mo)).toEqual({ value: 0 });
    } finally {
      room.close();
    }
    // The room closed: from here on, only what is sent counts.
    const othersOnline = async () =>
      (await ned.client.get('/api/chat-room/online-users-without-me')).json<{ value: number }>().value;
    const seenRecorded = async () =>
      (await sqlRows(t.ctx.db, sql`SELECT 1 FROM chat_last_seen WHERE user_id = ${mo.id}`)).length > 0;
    for (let i = 0; i < 80 && ((await othersOnline()) !== 0 || !(await seenRecorded())); i++) await sleep(25);
    expect(await missed(mo)).toEqual({ value: 0 });
    expect((await send(ned, 'hello', 100)).statusCode).toBe(200);
    expect((await send(ned, 'world', 100)).statusCode).toBe(200);
    expect(await missed(mo)).toEqual({ value: 2 });
  });

  it('keeps the books balanced after all of it', booksBalance);
});
