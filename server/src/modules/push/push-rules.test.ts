import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { endpointError, keysError, nextAttemptAt, PUSH_TEXT, retryDelayMs } from './push-rules';

/* The pure rules of push (docs/product.md#push): endpoints, keys, and the waits between tries. */

const device = () => {
  const ecdh = createECDH('prime256v1');
  return { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
};

describe('retryDelayMs', () => {
  it('waits 5 s after the first failure, doubling, at most an hour', () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(10)).toBe(2_560_000);
    expect(retryDelayMs(11)).toBe(3_600_000);
    expect(retryDelayMs(1_000)).toBe(3_600_000);
    expect(retryDelayMs(0)).toBe(5_000);
  });

  it('schedules the next try only before the push expires', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    expect(nextAttemptAt(2, now, new Date('2026-11-27T10:00:00Z'))).toEqual(new Date('2026-11-26T10:00:10Z'));
    expect(nextAttemptAt(2, now, new Date('2026-11-26T10:00:10Z'))).toBeNull();
    // A day of tries: 5 s doubling to an hour, then hourly, comes to about 30 tries.
    let at = now;
    let tries = 0;
    const expiry = new Date(now.getTime() + 86_400_000);
    for (let next = nextAttemptAt(1, at, expiry); next; next = nextAttemptAt(++tries + 1, at, expiry)) at = next;
    expect(tries).toBeGreaterThan(25);
    expect(tries).toBeLessThan(35);
  });
});

describe('endpointError', () => {
  it('takes https:// and refuses the rest', () => {
    expect(endpointError('https://fcm.googleapis.com/fcm/send/abc', false)).toBeUndefined();
    expect(endpointError('https://updates.push.services.mozilla.com/wpush/v2/x', true)).toBeUndefined();
    for (const bad of [
      'http://push.example/x',
      'http://127.0.0.1:9999/x',
      'ftp://push.example/x',
      'not a url',
      'https://user:pass@push.example/x',
      'javascript:alert(1)',
    ]) {
      expect(endpointError(bad, false), bad).toBe(PUSH_TEXT.endpoint);
    }
  });

  it('takes http:// on this machine only when PUSH_ALLOW_HTTP is set', () => {
    for (const local of ['http://127.0.0.1:9999/x', 'http://localhost:1/p', 'http://[::1]:8080/']) {
      expect(endpointError(local, true), local).toBeUndefined();
      expect(endpointError(local, false), local).toBe(PUSH_TEXT.endpoint);
    }
    expect(endpointError('http://push.example/x', true)).toBe(PUSH_TEXT.endpoint);
    expect(endpointError('http://10.0.0.1/x', true)).toBe(PUSH_TEXT.endpoint);
  });
});

describe('keysError', () => {
  it("takes a browser's keys, padded or not", () => {
    const keys = device();
    expect(keysError(keys)).toBeUndefined();
    expect(keysError({ p256dh: `${keys.p256dh}=`, auth: `${keys.auth}==` })).toBeUndefined();
  });

  it('refuses a key that is no uncompressed P-256 point, and a secret that is not 16 bytes', () => {
    const keys = device();
    const point = Buffer.from(keys.p256dh, 'base64url');
    const compressed = createECDH('prime256v1');
    compressed.generateKeys();
    const offCurve = Buffer.from(point);
    offCurve[64]! ^= 1;
    const p256dh = { field: 'keys.p256dh', errorText: PUSH_TEXT.p256dh };
    for (const bad of [
      compressed.getPublicKey(undefined, 'compressed').toString('base64url'),
      offCurve.toString('base64url'),
      point.subarray(0, 64).toString('base64url'),
      Buffer.concat([Buffer.from([0x05]), point.subarray(1)]).toString('base64url'),
      `${keys.p256dh.slice(0, -1)}+`,
      'not base64!',
      '',
    ]) {
      expect(keysError({ ...keys, p256dh: bad }), bad).toEqual(p256dh);
    }
    const auth = { field: 'keys.auth', errorText: PUSH_TEXT.auth };
    expect(keysError({ ...keys, auth: randomBytes(15).toString('base64url') })).toEqual(auth);
    expect(keysError({ ...keys, auth: randomBytes(17).toString('base64url') })).toEqual(auth);
    expect(keysError({ ...keys, auth: '!!!!' })).toEqual(auth);
  });
});

describe('the VAPID settings (server/src/config.ts)', () => {
  const pair = { publicKey: `B${'A'.repeat(86)}`, privateKey: 'A'.repeat(43) };

  it('takes both keys or neither, of the right lengths', () => {
    expect(loadConfig({}).vapidKeys).toBeUndefined();
    const both = { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
    expect(loadConfig(both).vapidKeys).toEqual(pair);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/together/);
    expect(() => loadConfig({ ...both, VAPID_PUBLIC_KEY: 'BAAA' })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => loadConfig({ ...both, VAPID_PRIVATE_KEY: 'A'.repeat(42) })).toThrow(/VAPID_PRIVATE_KEY/);
  });

  it('signs as VAPID_SUBJECT, else an https PUBLIC_URL, else MAIL_FROM', () => {
    expect(loadConfig({ VAPID_SUBJECT: 'https://wall.example/contact' }).vapidSubject).toBe(
      'https://wall.example/contact',
    );
    expect(() => loadConfig({ VAPID_SUBJECT: 'http://wall.example' })).toThrow(/VAPID_SUBJECT/);
    expect(loadConfig({ PUBLIC_URL: 'https://wall.example/' }).vapidSubject).toBe('https://wall.example');
    expect(loadConfig({ PUBLIC_URL: 'http://wall.example', MAIL_FROM: 'ops@wall.example' }).vapidSubject).toBe(
      'mailto:ops@wall.example',
    );
    expect(loadConfig({}).vapidSubject).toBe('mailto:no-reply@localhost');
  });

  it('takes http:// push endpoints only with PUSH_ALLOW_HTTP=1', () => {
    expect(loadConfig({}).pushAllowHttp).toBe(false);
    expect(loadConfig({ PUSH_ALLOW_HTTP: '1' }).pushAllowHttp).toBe(true);
  });
});
