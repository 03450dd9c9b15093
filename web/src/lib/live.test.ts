import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveClient } from './live';

/** Stands in for the browser's WebSocket: records what is sent and lets the test play the server. */
class FakeSocket {
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

function setup(random = () => 0.5) {
  const sockets: FakeSocket[] = [];
  const client = new LiveClient(
    () => 'ws://test/api/wss/universal',
    () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s as unknown as WebSocket;
    },
    random,
  );
  return { client, sockets };
}

const subscribe = (channel: string) => ({ ch: 'control', t: 'subscribe', m: { channel } });
const unsubscribe = (channel: string) => ({ ch: 'control', t: 'unsubscribe', m: { channel } });

afterEach(() => vi.useRealTimers());

describe('LiveClient', () => {
  it('opens one socket and subscribes each channel once, however many views listen', () => {
    const { client, sockets } = setup();
    const a = vi.fn();
    const b = vi.fn();
    client.subscribe('balance', a);
    client.subscribe('balance', b);
    expect(sockets).toHaveLength(1);
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([subscribe('balance')]);
    sockets[0]!.receive({ ch: 'balance', t: 'update', m: { value: 1200 } });
    expect(a).toHaveBeenCalledWith({ ch: 'balance', t: 'update', m: { value: 1200 } });
    expect(b).toHaveBeenCalledOnce();
    client.close();
  });

  it('unsubscribes when the last view leaves, and from channels nobody asked for', () => {
    const { client, sockets } = setup();
    const stop = client.subscribe('balance', () => {});
    sockets[0]!.open();
    sockets[0]!.receive({ ch: 'keyCount', t: 'update', m: { value: 3 } });
    stop();
    expect(sockets[0]!.sent).toEqual([subscribe('balance'), unsubscribe('keyCount'), unsubscribe('balance')]);
    client.close();
  });

  it('reconnects after a random wait and subscribes again', () => {
    vi.useFakeTimers();
    const { client, sockets } = setup(() => 0.5);
    const onReconnect = vi.fn();
    client.onReconnect(onReconnect);
    client.subscribe('lootBoxCount', () => {});
    sockets[0]!.open();
    sockets[0]!.close();
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1); // half of the first second's ceiling
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([subscribe('lootBoxCount')]);
    expect(onReconnect).toHaveBeenCalledOnce();
    client.close();
  });

  it('waits longer after each try that fails, and starts over once one opens', () => {
    vi.useFakeTimers();
    const { client, sockets } = setup(() => 0.5);
    client.subscribe('balance', () => {});
    sockets[0]!.open();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = sockets.length;
      sockets.at(-1)!.close(); // dropped, then each try refused
      let waited = 0;
      while (sockets.length === before) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([500, 1_000, 2_000, 4_000]);
    sockets.at(-1)!.open();
    sockets.at(-1)!.close();
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(6);
    client.close();
  });

  it('spreads the reconnects of many clients dropped at once instead of opening them together', () => {
    vi.useFakeTimers();
    const clients = Array.from({ length: 100 }, (_, i) => setup(() => i / 100));
    for (const { client, sockets } of clients) {
      client.subscribe('balance', () => {});
      sockets[0]!.open();
      sockets[0]!.close();
    }
    const reopened = () => clients.filter((c) => c.sockets.length === 2).length;
    vi.advanceTimersByTime(250);
    expect(reopened()).toBe(26); // waits of 0, 10, … 250 ms
    vi.advanceTimersByTime(750);
    expect(reopened()).toBe(100);
    for (const { client } of clients) client.close();
  });

  it('does not reconnect a socket it closed itself', () => {
    vi.useFakeTimers();
    const { client, sockets } = setup();
    client.subscribe('balance', () => {});
    sockets[0]!.open();
    client.close();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('calls its reconnect listeners when the server says events may have been lost, on the same socket', () => {
    const { client, sockets } = setup();
    const onReconnect = vi.fn();
    const handler = vi.fn();
    client.onReconnect(onReconnect);
    client.subscribe('balance', handler);
    sockets[0]!.open();
    expect(onReconnect).not.toHaveBeenCalled();

    sockets[0]!.receive({ ch: 'control', t: 'resync', m: {} });
    expect(onReconnect).toHaveBeenCalledOnce();
    expect(handler).not.toHaveBeenCalled();
    expect(sockets).toHaveLength(1);
    // The server kept this socket's subscriptions: nothing to send again.
    expect(sockets[0]!.sent).toEqual([subscribe('balance')]);
    client.close();
  });
});
