import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, newActionKey, RETRY_PAUSES_MS } from './api';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('an action key', () => {
  it('is a version-4 UUID, also where randomUUID is missing (a plain-http host)', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newActionKey()).toMatch(uuid);
    vi.stubGlobal('isSecureContext', false);
    const keys = new Set(Array.from({ length: 50 }, newActionKey));
    expect(keys.size).toBe(50);
    for (const k of keys) expect(k).toMatch(uuid);
  });
});

/** A fetch that answers from a list (a status, or 'drop' for no answer) and records each call's key. */
function serverAnswering(...answers: (number | 'drop')[]) {
  const keys: (string | undefined)[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_path: string, init: RequestInit) => {
      keys.push((init.headers as Record<string, string>)['idempotency-key']);
      const next = answers.shift() ?? 200;
      if (next === 'drop') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(next === 402 ? { missing: 150 } : { ok: next }), { status: next });
    }),
  );
  return keys;
}

/** Runs a call to its end with the retry pauses elapsed at once. */
async function settle<T>(call: Promise<T>): Promise<T> {
  const caught = call.catch((err: unknown) => err);
  await vi.runAllTimersAsync();
  const result = await caught;
  if (result instanceof Error) throw result;
  return result as T;
}

describe('a money call whose outcome is unknown', () => {
  it('is sent again under the same key after no answer or a 503, and stops at its answer', async () => {
    vi.useFakeTimers();
    const keys = serverAnswering('drop', 503, 200);
    expect(await settle(api('/api/purchase/key', { body: { keyCount: 1 }, idempotencyKey: 'k-1' }))).toEqual({
      ok: 200,
    });
    expect(keys).toEqual(['k-1', 'k-1', 'k-1']);
  });

  it('gives up after the last pause', async () => {
    vi.useFakeTimers();
    const keys = serverAnswering('drop', 'drop', 'drop', 200);
    await expect(settle(api('/api/purchase/key', { body: {}, idempotencyKey: 'k-2' }))).rejects.toThrow(TypeError);
    expect(keys).toHaveLength(RETRY_PAUSES_MS.length + 1);
  });

  it('is not sent again after a refusal: the next attempt is a new action with a new key', async () => {
    vi.useFakeTimers();
    const keys = serverAnswering(402, 200);
    const first = newActionKey();
    await expect(settle(api('/api/purchase/key', { body: {}, idempotencyKey: first }))).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(keys).toEqual([first]);
    const second = newActionKey();
    await settle(api('/api/purchase/key', { body: {}, idempotencyKey: second }));
    expect(keys).toEqual([first, second]);
    expect(second).not.toBe(first);
  });

  it('a call without a key (a read) is sent once', async () => {
    vi.useFakeTimers();
    const keys = serverAnswering(503);
    await expect(settle(api('/api/user-transactions'))).rejects.toBeInstanceOf(ApiError);
    expect(keys).toEqual([undefined]);
  });
});
