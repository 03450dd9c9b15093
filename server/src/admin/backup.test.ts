import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqlRows, type Database, type Db } from '../db/connection';
import { lockDataDir } from '../db/data-dir-lock';
import { transact } from '../db/unit-of-work';
import { creditTopUp, ensureSystemAccounts, openUserAccounts } from '../ledger/commands';
import { imageOf, jpegPart, upload } from '../modules/pictures/test-helpers';
import { s3StorageFor } from '../storage/s3';
import { localStorageFor } from '../storage/local-disk';
import { baseKeyOf, isVariantKey, type Storage } from '../storage/storage';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl, type FreshDatabase } from '../test/databases';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';
import { startTestS3, type TestS3 } from '../test/s3-server';
import { readFigures, type Manifest } from './backup';
import { runAdmin } from '../test/admin-command';

/**
 * `npm run admin -- backup` and `restore` (docs/operations.md "Backups and restore"), run as an operator runs them:
 * a backup taken while money moves restores into an empty database whose ledger check is ok and whose books are the
 * snapshot's, with the images readable; a database that holds anything is refused and left as it was.
 */

const tmp = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `wall-backup-${name}-`));

/** A database's settings for the command: through the pooler when the suite runs through one, with PostgreSQL itself. */
const databaseEnv = (db: { url: string; directUrl: string | undefined }): Record<string, string> =>
  db.directUrl ? { DATABASE_URL: db.url, DATABASE_DIRECT_URL: db.directUrl } : { DATABASE_URL: db.url };
const sourceOf = (t: TestApp) => databaseEnv({ url: t.config.databaseUrl!, directUrl: t.config.databaseDirectUrl });

const readManifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

const fund = (client: TestClient, imageId: number, amount: number) =>
  client.post('/api/payment/checkout-with-image-fund', { imageId, amount });

const count = async (db: Db, table: string) =>
  (await sqlRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n;

/**
 * Users with balances, a picture each uploaded through the app (an image in its storage), a lootbox opened: the
 * money, item and image kinds a backup must carry.
 */
async function seed(
  t: TestApp,
): Promise<{ userIds: number[]; clients: TestClient[]; pictures: { id: number; key: string }[] }> {
  const userIds: number[] = [];
  const clients: TestClient[] = [];
  const pictures: { id: number; key: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const { id: userId } = await makeUser(t.ctx, { balance: 50_000 });
    userIds.push(userId);
    const client = await signIn(t, userId);
    const res = await upload(client, 100, jpegPart(await imageOf(300 + 37 * i, 300)));
    expect(res.statusCode, res.body).toBe(200);
    const id = Number((res.json() as { url: string }).url.split('/').pop());
    const { url } = (await client.get(`/api/pictures/${id}`)).json() as { url: string };
    pictures.push({ id, key: url.split('/').pop()! });
    clients.push(client);
  }
  for (const client of clients.slice(0, 2)) {
    expect((await client.post('/api/purchase/key', { keyCount: 1, balance: 0 })).statusCode).toBe(200);
    expect((await client.post('/api/purchase/lootbox', {})).statusCode).toBe(200);
    expect((await client.post('/api/open/lootbox', {})).statusCode).toBe(200);
  }
  return { userIds, clients, pictures };
}

/** Fundings going on until stopped; `acknowledged()` counts the ones answered 200 so far. */
function moneyTraffic(clients: TestClient[], pictures: { id: number }[]) {
  let running = true;
  let acknowledged = 0;
  const failures: string[] = [];
  const workers = clients.map(async (client, i) => {
    for (let n = 0; running; n++) {
      const res = await fund(client, pictures[(i + 1 + n) % pictures.length]!.id, 1 + (n % 20));
      if (res.statusCode === 200) acknowledged++;
      else failures.push(`${res.statusCode} ${res.body}`);
    }
  });
  return {
    acknowledged: () => acknowledged,
    failures,
    async stop() {
      running = false;
      await Promise.all(workers);
      return acknowledged;
    },
  };
}

/** Until `n` fundings were acknowledged, so the traffic is under way. */
async function untilAcknowledged(traffic: ReturnType<typeof moneyTraffic>, n: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (traffic.acknowledged() < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(traffic.acknowledged()).toBeGreaterThanOrEqual(n);
}

/** The backup holds each picture's base file and its variants (`<hash>-<width>.<ext>`), and nothing else. */
function expectPicturesFiles(files: { key: string }[], pictures: { key: string }[]): void {
  const keys = files.map((f) => f.key);
  expect([...new Set(keys.map(baseKeyOf))].sort()).toEqual(pictures.map((p) => p.key).sort());
  for (const { key } of pictures) {
    expect(keys).toContain(key);
    expect(
      keys.some((k) => isVariantKey(k) && baseKeyOf(k) === key),
      key,
    ).toBe(true);
  }
}

/** Every picture's image as the app serves it: 200, with bytes that hash to the key. */
async function expectImagesServed(t: TestApp, pictures: { id: number; key: string }[]): Promise<void> {
  for (const { id, key } of pictures) {
    const { url } = (await t.client().get(`/api/pictures/${id}`)).json() as { url: string };
    expect(url).toBe(`/images/${key}`);
    const res = await t.client().get(url);
    expect(res.statusCode, key).toBe(200);
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(key.split('.')[0]);
  }
}

describe.skipIf(missingRealServices({ postgres: true }))('backup and restore on PostgreSQL, images on disk', () => {
  const dirs: string[] = [];
  let t: TestApp;
  let target: FreshDatabase;
  let restored: Database | undefined;
  let backupDir: string;
  let restoreDataDir: string;
  let pictures: { id: number; key: string }[];

  beforeAll(async () => {
    const dataDir = tmp('source');
    backupDir = path.join(tmp('out'), 'backup');
    restoreDataDir = tmp('restored');
    dirs.push(dataDir, path.dirname(backupDir), restoreDataDir);
    t = await startTestApp({ postgresUrl: realPostgresUrl!, config: { dataDir } });
    target = await freshPostgresDatabase(realPostgresUrl!);
  });
  afterAll(async () => {
    await restored?.close();
    await t?.close();
    await target?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a backup taken under money traffic restores into an empty database: ledger ok, the snapshot’s books, images served', async () => {
    const seeded = await seed(t);
    pictures = seeded.pictures;
    const source = { ...sourceOf(t), DATA_DIR: t.config.dataDir };
    const purchasesBefore = await count(t.ctx.db, 'picture_purchases');

    const traffic = moneyTraffic(seeded.clients, pictures);
    await untilAcknowledged(traffic, 20);
    const acknowledgedBefore = traffic.acknowledged();
    const backup = await runAdmin(['backup', '--out', backupDir], source);
    const acknowledgedDuring = traffic.acknowledged() - acknowledgedBefore;
    const acknowledgedAll = await traffic.stop();
    expect(traffic.failures).toEqual([]);
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    expect(backup.stdout).toMatch(/^Backed up into .* ledger check ok, \d+ images \(\d+ bytes\)\.$/m);
    // The traffic went on while the backup ran: the snapshot is one moment of a moving database.
    expect(acknowledgedDuring).toBeGreaterThan(0);

    const manifest = readManifest(backupDir);
    expect(manifest.database).toBe('postgresql');
    expect(manifest.serverVersion).toMatch(/^15\./);
    expect(manifest.ledger.ok).toBe(true);
    expect(manifest.durationMs).toBeGreaterThan(0);
    // Every funding acknowledged before the backup began is in it; none that was never made is.
    expect(manifest.counts.picture_purchases).toBeGreaterThanOrEqual(purchasesBefore + acknowledgedBefore);
    expect(manifest.counts.picture_purchases).toBeLessThanOrEqual(purchasesBefore + acknowledgedAll);
    expect(manifest.counts.lootbox_openings).toBe(2);
    expect(backup.stdout).toContain(`ledger check ok, ${manifest.images.files.length} images`);
    expectPicturesFiles(manifest.images.files, pictures);
    for (const file of manifest.images.files) {
      if (!isVariantKey(file.key)) expect(file.sha256).toBe(file.key.split('.')[0]);
      expect(fs.statSync(path.join(backupDir, 'images', file.key)).size).toBe(file.size);
    }

    const restore = await runAdmin(['restore', '--from', backupDir], {
      ...databaseEnv(target),
      DATA_DIR: restoreDataDir,
    });
    expect(restore, restore.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(restore.stdout).toMatch(/^Ledger check: ok \{/m);
    expect(restore.stdout).toContain(`Images: ${manifest.images.files.length} restored, 0 already there, 0 missing.`);
    expect(restore.stdout).toContain('Restore ok');

    restored = await openDatabase({ databaseUrl: target.url, directUrl: target.directUrl, poolSize: 2 });
    const figures = await readFigures(restored.db);
    expect(figures.ledger).toEqual(manifest.ledger);
    expect(figures.counts).toEqual(manifest.counts);
    expect(figures.balancesDigest).toBe(manifest.balancesDigest);

    // The restored database serves: the pictures' images from the restored disk, and money moves again.
    const again = await startTestApp({
      config: { databaseUrl: target.url, databaseDirectUrl: target.directUrl, dataDir: restoreDataDir },
    });
    try {
      await expectImagesServed(again, pictures);
      const client = await signIn(again, seeded.userIds[0]!);
      expect((await fund(client, pictures[1]!.id, 5)).statusCode).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('refuses to restore into a database that has rows, in one line, and changes nothing', async () => {
    expect(restored, 'the restore above ran').toBeDefined();
    const before = await readFigures(restored!.db);
    const out = await runAdmin(['restore', '--from', backupDir], { ...databaseEnv(target), DATA_DIR: restoreDataDir });
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(
      /^Refusing to restore: database t_\w+ is not empty \(\S+ has rows\); restore into an empty database\.\n$/,
    );
    expect(await readFigures(restored!.db)).toEqual(before);
  });

  it('exits 1 when what it restored is not what the manifest says was backed up', async () => {
    const altered = path.join(tmp('altered'), 'backup');
    dirs.push(path.dirname(altered));
    fs.cpSync(backupDir, altered, { recursive: true });
    const manifest = readManifest(altered);
    manifest.ledger.userMoney += 1;
    fs.writeFileSync(path.join(altered, 'manifest.json'), JSON.stringify(manifest));
    const other = await freshPostgresDatabase(realPostgresUrl!);
    try {
      const out = await runAdmin(['restore', '--from', altered], {
        ...databaseEnv(other),
        DATA_DIR: tmp('altered-data'),
      });
      expect(out.code).toBe(1);
      expect(out.stdout).toContain('Restore NOT ok.');
      expect(out.stderr).toBe(
        `Differs from the backup: ledger userMoney: backup ${manifest.ledger.userMoney}, restored ${manifest.ledger.userMoney - 1}\n`,
      );
    } finally {
      await other.drop();
    }
  });
});

describe.skipIf(missingRealServices({ postgres: true }))('backup and restore on PostgreSQL, images in S3', () => {
  let source: TestS3;
  let empty: TestS3;
  let t: TestApp;
  let target: FreshDatabase;
  const dirs: string[] = [];

  beforeAll(async () => {
    [source, empty] = await Promise.all([startTestS3(), startTestS3()]);
    const dataDir = tmp('s3-source');
    dirs.push(dataDir);
    t = await startTestApp({ postgresUrl: realPostgresUrl!, env: source.env, config: { dataDir } });
    target = await freshPostgresDatabase(realPostgresUrl!);
  });
  afterAll(async () => {
    await t?.close();
    await target?.drop();
    await Promise.all([source?.close(), empty?.close()]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists and copies the bucket’s images, and puts them into an empty bucket on restore', async () => {
    const { clients, pictures } = await seed(t);
    expect((await fund(clients[0]!, pictures[1]!.id, 250)).statusCode).toBe(200);
    const backupDir = path.join(tmp('s3-out'), 'backup');
    dirs.push(path.dirname(backupDir));

    const backup = await runAdmin(['backup', '--out', backupDir], {
      ...source.env,
      ...sourceOf(t),
      DATA_DIR: t.config.dataDir,
    });
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    const manifest = readManifest(backupDir);
    expect(manifest.images.storage).toBe(`s3://${source.config.bucket}`);
    expectPicturesFiles(manifest.images.files, pictures);

    const restoreDataDir = tmp('s3-restored');
    dirs.push(restoreDataDir);
    const restore = await runAdmin(['restore', '--from', backupDir], {
      ...empty.env,
      ...databaseEnv(target),
      DATA_DIR: restoreDataDir,
    });
    expect(restore, restore.stderr).toMatchObject({ code: 0 });
    expect(restore.stdout).toMatch(/^Ledger check: ok \{/m);
    expect(restore.stdout).toContain(`Images: ${manifest.images.files.length} restored, 0 already there, 0 missing.`);

    const bucket: Storage = s3StorageFor(empty.config);
    try {
      for (const { key } of manifest.images.files) expect((await bucket.get(key))?.bytes.length).toBeGreaterThan(0);
    } finally {
      bucket.close?.();
    }
    const again = await startTestApp({
      env: empty.env,
      config: { databaseUrl: target.url, databaseDirectUrl: target.directUrl, dataDir: restoreDataDir },
    });
    try {
      await expectImagesServed(again, pictures);
    } finally {
      await again.close();
    }
  });
});

describe('backup and restore of the embedded database', () => {
  const dirs: string[] = [];
  let dataDir: string;
  let key: string;

  beforeAll(async () => {
    dataDir = tmp('embedded');
    dirs.push(dataDir);
    const db = await openDatabase({ dataDir });
    try {
      await ensureSystemAccounts(db.db);
      const [user] = await sqlRows(
        db.db,
        sql<{ id: number }>`INSERT INTO users (username, email, badge) VALUES ('erin', 'erin@example.test', 'BERIN')
          RETURNING id`,
      );
      await openUserAccounts(db.db, user!.id);
      await transact({ db: db.db, bus: { send: async () => undefined } }, (work) =>
        creditTopUp(work, user!.id, 1_234, 'backup-test'),
      );
    } finally {
      await db.close();
    }
    const bytes = await imageOf(120, 90);
    key = await localStorageFor(dataDir).put(createHash('sha256').update(bytes).digest('hex'), bytes, 'image/jpeg');
  });
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses while a server holds the data directory, copies it when stopped, and restores it into a new one', async () => {
    const out = path.join(tmp('embedded-out'), 'backup');
    dirs.push(path.dirname(out));
    const release = await lockDataDir(dataDir); // as a running server holds it
    try {
      const refused = await runAdmin(['backup', '--out', out], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('is in use by another process (is the server running?)');
      expect(fs.existsSync(path.join(out, 'manifest.json'))).toBe(false);
    } finally {
      await release();
    }

    const backup = await runAdmin(['backup', '--out', out], { DATA_DIR: dataDir });
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    const manifest = readManifest(out);
    expect(manifest.database).toBe('embedded');
    expect(manifest.ledger).toMatchObject({ ok: true, userMoney: 1_234 });
    expect(manifest.images.files.map((f) => f.key)).toEqual([key]);

    const restoredDir = tmp('embedded-restored');
    dirs.push(restoredDir);
    const restore = await runAdmin(['restore', '--from', out], { DATA_DIR: restoredDir });
    expect(restore, restore.stderr).toMatchObject({ code: 0 });
    // The restore proves its figures against the manifest's (the balances' digest among them) before it says ok.
    expect(restore.stdout).toMatch(/^Ledger check: ok \{.*"userMoney":1234/m);
    expect(restore.stdout).toContain('Restore ok');
    expect(fs.readFileSync(path.join(restoredDir, 'images', key))).toEqual(
      fs.readFileSync(path.join(dataDir, 'images', key)),
    );

    const twice = await runAdmin(['restore', '--from', out], { DATA_DIR: restoredDir });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(
      /^Refusing to restore: .* already holds a database; restore into a DATA_DIR without one\.\n$/,
    );
  }); // four admin processes, each opening an embedded database: over 60 s beside other CI jobs
});
