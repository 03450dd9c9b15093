import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DRAINING, HEALTH_TIMEOUT_MS } from './health.routes';
import { startTestApp, type TestApp } from '../../test/harness';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 {ok: true} while the database answers', async () => {
    const res = await t.client().get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('needs no session and no Origin, as load balancers call it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/health while the instance drains', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 at once when told to stop, while every other call is still served for the drain', async () => {
    const draining = t.drain(300);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ ok: false, reason: DRAINING });
    const wall = await t.client().get('/api/pictures?page=0');
    expect(wall.statusCode).toBe(200);
    await draining;
  });
});

describe('GET /api/health without a database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 {ok: false} once the database is gone, so the instance is taken out of rotation', async () => {
    const database = t.ctx.database;
    await database.close();
    // Already closed: the app's own shutdown must not close it twice.
    database.close = async () => {};
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ok: false, reason: 'The database does not answer.' });
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('GET /api/health on a stalled embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 in bounded time when the database does not answer', async () => {
    // The embedded database has one connection: a transaction that sits idle stalls every other query behind it.
    let release!: () => void;
    const held = t.ctx.db.transaction(() => new Promise<void>((r) => (release = r)));
    const started = Date.now();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    release();
    await held;
    expect(res.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(HEALTH_TIMEOUT_MS + 5_000); // slack for a loaded machine
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('GET /api/health on a full or unwritable data directory (issue 22 item 29)', () => {
  let t: TestApp;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-health-'));
  beforeAll(async () => {
    t = await startTestApp({ config: { dataDir } });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    t.config.dataDirMinFreeBytes = 64 * 1024 * 1024;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const health = () => t.app.inject({ method: 'GET', url: '/api/health' });
  const failWrites = (code: string) =>
    vi.spyOn(fsp, 'writeFile').mockRejectedValue(Object.assign(new Error(`${code}: write`), { code }));

  it('answers 200 while the data directory takes writes and has room', async () => {
    expect((await health()).statusCode).toBe(200);
  });

  it('answers 503 with the reason when a write there finds no room, though the database answers reads', async () => {
    failWrites('ENOSPC');
    const res = await health();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ok: false, reason: 'The data directory is full.' });
  });

  it('answers 503 when its free space is under DATA_DIR_MIN_FREE_MB, before the last block goes', async () => {
    t.config.dataDirMinFreeBytes = Number.MAX_SAFE_INTEGER;
    const res = await health();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ok: false, reason: 'The data directory is full.' });
  });

  it('answers 503 when the data directory cannot be written at all', async () => {
    failWrites('EACCES');
    expect((await health()).json()).toEqual({ ok: false, reason: 'The data directory cannot be written to.' });
  });
});
