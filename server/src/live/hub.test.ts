import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { audience, liveEvent } from '../../../common/live';
import { MemoryBus } from './bus';
import { Hub } from './hub';

const log = { warn: () => {}, error: () => {} };

interface Tab {
  values: unknown[];
  socket: WebSocket;
}

describe('snapshots read for several sockets of one user at once', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A hub on a bare ws server whose every socket is user 1's, with a balance snapshot the test answers by hand. */
  async function setUp() {
    const bus = new MemoryBus();
    const hub = new Hub({ bus, heartbeatMs: 60_000, log });
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    wss.on('connection', (socket) => hub.add(socket, { userId: 1, session: 's1', address: '127.0.0.1' }));
    await once(wss, 'listening');
    const reads: ((value: number) => void)[] = [];
    hub.snapshot('balance', 'update', () => new Promise<{ value: number }>((r) => reads.push((value) => r({ value }))));
    const tabs: Tab[] = [];
    closers.push(async () => {
      for (const tab of tabs) tab.socket.terminate();
      hub.close();
      await new Promise((r) => wss.close(r));
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const open = async (): Promise<Tab> => {
      const socket = new WebSocket(url);
      const tab: Tab = { socket, values: [] };
      socket.on('message', (data) =>
        tab.values.push((JSON.parse(data.toString()) as { m: { value: number } }).m.value),
      );
      await once(socket, 'open');
      tabs.push(tab);
      return tab;
    };
    const subscribe = (tab: Tab) =>
      tab.socket.send(JSON.stringify({ ch: 'control', t: 'subscribe', m: { channel: 'balance' } }));
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
      expect(ok()).toBe(true);
    };
    return { bus, reads, open, subscribe, until };
  }

  it('share one read', async () => {
    const { reads, open, subscribe, until } = await setUp();
    const [a, b, c] = await Promise.all([open(), open(), open()]);
    for (const tab of [a!, b!, c!]) subscribe(tab);
    await until(() => reads.length === 1);
    await new Promise((r) => setTimeout(r, 50)); // every subscribe handled
    expect(reads).toHaveLength(1);
    reads[0]!(40);
    await until(() => [a!, b!, c!].every((tab) => tab.values.length === 1));
    expect([a!, b!, c!].map((tab) => tab.values)).toEqual([[40], [40], [40]]);
  });

  it('read again for a socket that subscribes after an event newer than the read in flight', async () => {
    const { bus, reads, open, subscribe, until } = await setUp();
    const a = await open();
    const b = await open();
    subscribe(a);
    await until(() => reads.length === 1); // a's read in flight, from before the event
    await bus.send(liveEvent('balance', 'update', { value: 5 }, audience.user(1)));
    await until(() => a.values.length === 1);
    subscribe(b);
    await until(() => reads.length === 2); // b does not take a's read, which may be older than the event
    reads[0]!(4); // the old value: a has the event already, and b never subscribed before the read
    reads[1]!(5);
    await until(() => b.values.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(a.values).toEqual([5]);
    expect(b.values).toEqual([5]);
  });
});
