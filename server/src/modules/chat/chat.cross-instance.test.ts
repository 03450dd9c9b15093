import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveTestClient, settle, sleep } from '../../live/live-test-client';
import type { RunningServer } from '../../server';
import { missingRealServices } from '../../test/databases';
import { startTwoInstances, type TwoInstances } from '../../test/two-instances';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { TestClient, type TestApp } from '../../test/harness';

const skip = missingRealServices({ postgres: true, redis: true });

describe.skipIf(skip)('the chat on two instances sharing PostgreSQL and Redis', () => {
  let pair: TwoInstances;
  let a: RunningServer;
  let b: RunningServer;
  let urlA: string;
  let urlB: string;
  const tabs: LiveTestClient[] = [];

  beforeAll(async () => {
    pair = await startTwoInstances('chat', { jobs: [] });
    ({ a, b, urlA, urlB } = pair);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.close();
    await pair?.close();
  });

  const clientOn = async (server: RunningServer, userId: number) =>
    signIn(server as TestApp, userId, new TestClient(server));
  async function tabOn(base: string, client?: TestClient, channels = ['chat']) {
    const tab = await LiveTestClient.open(base, { cookie: client?.cookieHeader() });
    tabs.push(tab);
    for (const c of channels) tab.subscribe(c);
    await settle(tab);
    return tab;
  }
  const lastCount = (tab: LiveTestClient) =>
    tab
      .on('chat')
      .filter((f) => f.t === 'onlineUserCount')
      .at(-1)?.m.count;
  async function countBecomes(tab: LiveTestClient, n: number) {
    // Up to 15 s: beside two other CI jobs on two cores, a count has taken more than 5 s to arrive.
    for (let i = 0; i < 300 && lastCount(tab) !== n; i++) await sleep(50);
    expect(lastCount(tab)).toBe(n);
  }
  const withoutMe = async (client: TestClient) =>
    (await client.get('/api/chat-room/online-users-without-me')).json<{ value: number }>().value;

  it('counts users on both instances once each, a user with two tabs once, and delivers a message sent on A to B', async () => {
    const alice = await makeUser(a.ctx, { balance: 1_000 });
    const bob = await makeUser(a.ctx, { balance: 0 });
    for (const l of 'HELO') await giveItems(a.ctx, alice.id, `COMMON_LETTER_${l}`, 1);
    const aliceA = await clientOn(a, alice.id);
    const bobB = await clientOn(b, bob.id);
    const bobA = await clientOn(a, bob.id);

    const aliceTab = await tabOn(urlA, aliceA);
    const bobTab1 = await tabOn(urlB, bobB);
    const bobTab2 = await tabOn(urlB, bobB);
    const bobTab3 = await tabOn(urlA, bobA);
    const visitor = await tabOn(urlB);
    await countBecomes(visitor, 2);
    await countBecomes(aliceTab, 2);
    expect(await withoutMe(aliceA)).toBe(1);
    expect(await withoutMe(bobB)).toBe(1);
    expect(await withoutMe(new TestClient(b))).toBe(2);

    const res = await aliceA.post('/api/user/message', { message: 'hello', sendAmount: 10, balance: 1_000 });
    expect(res.statusCode).toBe(200);
    const sent = res.json().message;
    for (const tab of [bobTab1, bobTab2, bobTab3, visitor, aliceTab]) {
      expect(await tab.next((f) => f.ch === 'chat' && f.t === 'textMessage')).toEqual({
        ch: 'chat',
        t: 'textMessage',
        m: sent,
      });
    }

    // Bob closes the tabs on B: he is still on A, so still counted.
    bobTab1.close();
    bobTab2.close();
    await sleep(600);
    expect(await withoutMe(aliceA)).toBe(1);
    bobTab3.close();
    await countBecomes(visitor, 1);
    expect(await withoutMe(aliceA)).toBe(0);
  });

  it('tells a signed-in user without the room open how many messages they missed, on their own instance', async () => {
    const carol = await makeUser(a.ctx, { balance: 1_000 });
    const dan = await makeUser(a.ctx);
    for (const l of 'HELO') await giveItems(a.ctx, carol.id, `COMMON_LETTER_${l}`, 1);
    const carolA = await clientOn(a, carol.id);
    const danTab = await tabOn(urlB, await clientOn(b, dan.id), ['notification']);
    const res = await carolA.post('/api/user/message', { message: 'hello', sendAmount: 10 });
    expect(res.statusCode).toBe(200);
    // Dan never had the room open: every message so far is missed (the first test sent one).
    expect(await danTab.next((f) => f.ch === 'notification')).toEqual({
      ch: 'notification',
      t: 'missedMessage',
      m: { value: 2 },
    });
    // He opens the room and leaves it: from then on only newer messages count.
    danTab.subscribe('chat');
    await settle(danTab);
    danTab.unsubscribe('chat');
    await settle(danTab);
    await sleep(300);
    const from = danTab.frames.length;
    expect((await carolA.post('/api/user/message', { message: 'hello', sendAmount: 10 })).statusCode).toBe(200);
    expect(await danTab.next((f) => f.ch === 'notification', 5000, from)).toMatchObject({ m: { value: 1 } });
  });
});
