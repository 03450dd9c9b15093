import { afterEach, describe, expect, it, vi } from 'vitest';
import { newActionKey } from './api';

afterEach(() => vi.unstubAllGlobals());

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
