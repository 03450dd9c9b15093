import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { lockDataDir } from '../db/data-dir-lock';
import { sqlRows, type Db, type Executor } from '../db/connection';
import { checkConservation, type ConservationReport } from '../ledger/conservation';
import { contentTypeOfKey, isVariantKey, nameOfKey, STORAGE_KEY, type Storage } from '../storage/storage';

const exec = promisify(execFile);

/**
 * `npm run admin -- backup [--out DIR]` and `restore --from DIR` (docs/operations.md "Backups and restore",
 * docs/decisions.md "Issue 25: backups"). On PostgreSQL a backup is a pg_dump in custom format taken in one
 * repeatable-read snapshot, which this process exports and reads its own figures in (the ledger check, the money
 * tables' row counts, a digest of every account's balance), so the manifest describes exactly what the dump holds;
 * then every image, copied with its size and SHA-256. On the embedded database it is the data directory copied while
 * no server holds it. A restore goes only into an empty database, puts back the images the storage lacks, and proves
 * the result: the ledger check is ok and its figures are the manifest's.
 */

/** The tables whose rows are money or items, counted in the manifest and compared after a restore. */
export const MONEY_TABLES = [
  'ledger_accounts',
  'journal_entries',
  'postings',
  'payments',
  'picture_purchases',
  'item_postings',
  'inventories',
  'lootbox_openings',
  'market_offers',
  'trades',
  'goodwill_batches',
  'goodwill_shares',
  'pictures',
] as const;

export const MANIFEST = 'manifest.json';
export const DUMP = 'database.dump';
export const EMBEDDED_DIR = 'pglite';
export const IMAGES_DIR = 'images';

export interface ImageFile {
  key: string;
  size: number;
  sha256: string;
}

/** What a backup holds, written beside it as manifest.json; the figures are those of the snapshot the dump is. */
export interface Manifest {
  format: 1;
  database: 'postgresql' | 'embedded';
  /** When the snapshot was taken, by the database's clock (PostgreSQL) or this machine's (embedded). */
  takenAt: string;
  /** The whole backup, snapshot to last image. */
  durationMs: number;
  serverVersion: string;
  /** The dump (PostgreSQL), or undefined for the embedded database's directory copy. */
  dump: { file: string; bytes: number; sha256: string } | undefined;
  ledger: ConservationReport;
  counts: Record<string, number>;
  /** SHA-256 over every ledger account's `code:balance`, in code order: equal balances, equal digest. */
  balancesDigest: string;
  images: { storage: string; count: number; bytes: number; files: ImageFile[] };
}

/** The figures a backup records and a restore must find again. */
export interface Figures {
  ledger: ConservationReport;
  counts: Record<string, number>;
  balancesDigest: string;
}

export async function readFigures(db: Executor): Promise<Figures> {
  const ledger = await checkConservation(db);
  const counts: Record<string, number> = {};
  for (const table of MONEY_TABLES) {
    const [row] = await sqlRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`);
    counts[table] = row!.n;
  }
  const hash = createHash('sha256');
  const accounts = await sqlRows(
    db,
    sql<{ line: string }>`SELECT code || ':' || balance AS line FROM ledger_accounts ORDER BY code COLLATE "C"`,
  );
  for (const { line } of accounts) hash.update(`${line}\n`);
  return { ledger, counts, balancesDigest: hash.digest('hex') };
}

/** Where `found` differs from the manifest's figures, one line each; none when the restore is what was backed up. */
export function figureDifferences(manifest: Manifest, found: Figures): string[] {
  const out: string[] = [];
  for (const [name, want] of Object.entries(manifest.ledger)) {
    const got = (found.ledger as unknown as Record<string, unknown>)[name];
    if (got !== want) out.push(`ledger ${name}: backup ${String(want)}, restored ${String(got)}`);
  }
  for (const [table, want] of Object.entries(manifest.counts)) {
    if (found.counts[table] !== want) out.push(`${table} rows: backup ${want}, restored ${found.counts[table]}`);
  }
  if (found.balancesDigest !== manifest.balancesDigest) out.push('account balances differ from the backup');
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL client tools

/**
 * pg_dump or pg_restore for a server of this major version: PG_BIN when set, else Debian's
 * /usr/lib/postgresql/<major>/bin (the server's own major first, then newer ones), else the one on PATH, whose version
 * must not be older than the server's (pg_dump refuses a newer server).
 */
export async function pgTool(name: 'pg_dump' | 'pg_restore', serverMajor: number): Promise<string> {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(path.join(process.env.PG_BIN, name));
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((d) => /^\d+$/.test(d) && Number(d) >= serverMajor)
        .sort((a, b) => Number(a) - Number(b))
    : [];
  for (const major of majors) candidates.push(path.join(root, major, 'bin', name));
  candidates.push(name);
  for (const candidate of candidates) {
    let version: string;
    try {
      version = (await exec(candidate, ['--version'])).stdout;
    } catch {
      continue; // not there
    }
    const major = Number(/(\d+)(?:\.\d+)?/.exec(version)?.[1]);
    if (major >= serverMajor) return candidate;
  }
  throw new Error(
    `No ${name} of PostgreSQL ${serverMajor} or newer: install postgresql-client-${serverMajor}, or set PG_BIN.`,
  );
}

/** Sets the pg driver to hand back bigint and numeric as numbers, as the app's pool does (db/postgres.ts). */
function numbersAsNumbers(): void {
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function serverMajorOf(client: pg.Client): Promise<{ major: number; version: string }> {
  const { rows } = await client.query<{ num: string; version: string }>(
    "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS version",
  );
  return { major: Math.floor(Number(rows[0]!.num) / 10_000), version: rows[0]!.version };
}

// ---------------------------------------------------------------------------------------------------------------
// Images

/** Every image of the storage, copied into `dir` and listed with its size and SHA-256; damaged ones are named. */
async function copyImagesOut(storage: Storage, dir: string): Promise<{ files: ImageFile[]; damaged: string[] }> {
  fs.mkdirSync(dir, { recursive: true });
  const files: ImageFile[] = [];
  const damaged: string[] = [];
  for await (const { key } of storage.list()) {
    const file = await storage.get(key);
    if (!file) continue; // removed since it was listed (the cleanup job takes only unused images)
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    // A variant is named from its base file's hash, not its own: the manifest's SHA-256 checks it on the way back.
    if (!isVariantKey(key) && !key.startsWith(`${sha256}.`)) {
      damaged.push(key);
      continue;
    }
    fs.writeFileSync(path.join(dir, key), file.bytes);
    files.push({ key, size: file.bytes.length, sha256 });
  }
  files.sort((a, b) => (a.key < b.key ? -1 : 1));
  return { files, damaged };
}

export interface ImagesBack {
  /** Copied from the backup into the storage. */
  restored: number;
  /** In the storage already. */
  present: number;
  /** In the manifest but neither in the storage nor, intact, in the backup. */
  missing: string[];
}

/** The manifest's images put back into the storage where it lacks them, each checked against its SHA-256. */
async function copyImagesBack(manifest: Manifest, dir: string, storage: Storage): Promise<ImagesBack> {
  const outcome: ImagesBack = { restored: 0, present: 0, missing: [] };
  for (const image of manifest.images.files) {
    if (!STORAGE_KEY.test(image.key)) continue;
    if (await storage.exists(image.key)) {
      outcome.present++;
      continue;
    }
    const file = path.join(dir, image.key);
    const bytes = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== image.sha256) {
      outcome.missing.push(image.key);
      continue;
    }
    await storage.put(nameOfKey(image.key), bytes, contentTypeOfKey(image.key));
    outcome.restored++;
  }
  return outcome;
}

/** Pictures whose image the storage does not have. */
async function picturesWithoutImage(db: Executor, storage: Storage): Promise<string[]> {
  const keys = await sqlRows(db, sql<{ key: string }>`SELECT DISTINCT image_key AS key FROM pictures`);
  const missing: string[] = [];
  for (const { key } of keys) if (!(await storage.exists(key))) missing.push(key);
  return missing;
}

// ---------------------------------------------------------------------------------------------------------------
// Backup

export interface BackupOptions {
  out: string;
  storage: Storage;
  /** Named in the manifest: `s3://bucket` or the local directory. */
  storageName: string;
  log: (line: string) => void;
}

function prepareOut(out: string): void {
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
    throw new Error(`${out} is not empty: name a new directory with --out.`);
  }
  fs.mkdirSync(out, { recursive: true });
}

function writeManifest(out: string, manifest: Manifest): void {
  fs.writeFileSync(path.join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * A backup of PostgreSQL at `url` (PostgreSQL itself, not a transaction pooler: the snapshot is exported from a
 * session). The dump and the manifest's figures come from one snapshot, so traffic during the backup is fine.
 */
export async function backupPostgres(url: string, opts: BackupOptions): Promise<Manifest> {
  const started = Date.now();
  prepareOut(opts.out);
  numbersAsNumbers();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let manifest: Manifest;
  try {
    const { major, version } = await serverMajorOf(client);
    const pgDump = await pgTool('pg_dump', major);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const { rows } = await client.query<{ snapshot: string; at: Date }>(
      'SELECT pg_export_snapshot() AS snapshot, now() AS at',
    );
    const { snapshot, at } = rows[0]!;
    const figures = await readFigures(drizzlePg(client) as unknown as Db);
    opts.log(`Snapshot ${snapshot}: ${figures.counts.journal_entries} ledger entries; dumping with ${pgDump}…`);
    const dumpFile = path.join(opts.out, DUMP);
    // The exporting transaction stays open until pg_dump is done, so the snapshot stays importable.
    await exec(pgDump, ['--format=custom', '--no-owner', `--snapshot=${snapshot}`, `--file=${dumpFile}`, url], {
      maxBuffer: 16 * 1024 * 1024,
    });
    await client.query('COMMIT');
    const dump = { file: DUMP, bytes: fs.statSync(dumpFile).size, sha256: await sha256File(dumpFile) };
    // Listed after the snapshot: an image is stored before the upload that names it commits, so every image the
    // dump refers to is listed (images uploaded since are too, harmlessly).
    const images = await copyImagesOut(opts.storage, path.join(opts.out, IMAGES_DIR));
    for (const key of images.damaged) opts.log(`Not copied: ${key} does not match its content's hash.`);
    manifest = {
      format: 1,
      database: 'postgresql',
      takenAt: at.toISOString(),
      durationMs: Date.now() - started,
      serverVersion: version,
      dump,
      ...figures,
      images: imageSummary(opts.storageName, images.files),
    };
  } finally {
    await client.end().catch(() => {});
  }
  writeManifest(opts.out, manifest);
  return manifest;
}

const imageSummary = (storage: string, files: ImageFile[]) => ({
  storage,
  count: files.length,
  bytes: files.reduce((sum, f) => sum + f.size, 0),
  files,
});

/**
 * A backup of the embedded database: its directory copied while this process holds the data directory's lock, which
 * no server then holds (a running server makes this fail with the lock's message), and the images beside it.
 */
export async function backupEmbedded(dataDir: string, opts: BackupOptions): Promise<Manifest> {
  const started = Date.now();
  prepareOut(opts.out);
  const release = await lockDataDir(dataDir);
  try {
    const source = path.join(dataDir, EMBEDDED_DIR);
    if (!fs.existsSync(source)) throw new Error(`No embedded database in ${dataDir}.`);
    const client = new PGlite(source, { parsers: { 20: Number, 1700: Number } });
    let figures: Figures;
    let version: string;
    try {
      figures = await readFigures(drizzlePglite(client) as unknown as Db);
      version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    } finally {
      await client.close();
    }
    fs.cpSync(source, path.join(opts.out, EMBEDDED_DIR), { recursive: true });
    const images = await copyImagesOut(opts.storage, path.join(opts.out, IMAGES_DIR));
    for (const key of images.damaged) opts.log(`Not copied: ${key} does not match its content's hash.`);
    const manifest: Manifest = {
      format: 1,
      database: 'embedded',
      takenAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      serverVersion: `PGlite ${version}`,
      dump: undefined,
      ...figures,
      images: imageSummary(opts.storageName, images.files),
    };
    writeManifest(opts.out, manifest);
    return manifest;
  } finally {
    await release();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Restore

export function readManifest(from: string): Manifest {
  const file = path.join(from, MANIFEST);
  if (!fs.existsSync(file)) throw new Error(`${from} holds no ${MANIFEST}: name a directory \`backup\` wrote.`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  if (manifest.format !== 1) throw new Error(`${file} is of an unknown format (${String(manifest.format)}).`);
  return manifest;
}

/** Thrown when the target already holds data; its message is the one line the command prints. */
export class NotEmptyError extends Error {}

/** The first table (outside PostgreSQL's own schemas) that has a row, or undefined when every table is empty. */
async function firstTableWithRows(client: pg.Client): Promise<string | undefined> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  for (const { name } of tables) {
    const { rows } = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${name}) AS any`);
    if (rows[0]!.any) return name;
  }
  return undefined;
}

export interface RestoreOptions {
  from: string;
  storage: Storage;
  log: (line: string) => void;
}

export interface RestoreOutcome {
  figures: Figures;
  /** Where the restored figures differ from the manifest's. */
  differences: string[];
  images: ImagesBack;
  /** Pictures whose image is in neither the storage nor the backup. */
  picturesWithoutImage: string[];
  ok: boolean;
}

function outcomeOf(manifest: Manifest, figures: Figures, images: ImagesBack, unseen: string[]): RestoreOutcome {
  const differences = figureDifferences(manifest, figures);
  return {
    figures,
    differences,
    images,
    picturesWithoutImage: unseen,
    ok: figures.ledger.ok && differences.length === 0 && unseen.length === 0 && images.missing.length === 0,
  };
}

/** A PostgreSQL backup restored into the empty database at `url` (PostgreSQL itself), then proved. */
export async function restorePostgres(url: string, opts: RestoreOptions): Promise<RestoreOutcome> {
  const manifest = readManifest(opts.from);
  if (manifest.database !== 'postgresql' || !manifest.dump) {
    throw new Error(`${opts.from} is a backup of the embedded database: restore it with DATABASE_URL unset.`);
  }
  const dumpFile = path.join(opts.from, manifest.dump.file);
  if (!fs.existsSync(dumpFile) || (await sha256File(dumpFile)) !== manifest.dump.sha256) {
    throw new Error(`${dumpFile} is missing or differs from the one the manifest describes.`);
  }
  numbersAsNumbers();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const occupied = await firstTableWithRows(client);
    if (occupied) {
      const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
      throw new NotEmptyError(
        `Refusing to restore: database ${rows[0]!.db} is not empty (${occupied} has rows); restore into an empty database.`,
      );
    }
    const pgRestore = await pgTool('pg_restore', (await serverMajorOf(client)).major);
    opts.log(`Restoring ${dumpFile} (${manifest.takenAt}) with ${pgRestore}…`);
    // One transaction: a restore that fails leaves the database as empty as it was.
    await exec(
      pgRestore,
      ['--single-transaction', '--exit-on-error', '--no-owner', '--no-acl', `--dbname=${url}`, dumpFile],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const images = await copyImagesBack(manifest, path.join(opts.from, IMAGES_DIR), opts.storage);
    const db = drizzlePg(client) as unknown as Db;
    return outcomeOf(manifest, await readFigures(db), images, await picturesWithoutImage(db, opts.storage));
  } finally {
    await client.end().catch(() => {});
  }
}

/** An embedded backup restored into DATA_DIR, which must hold no database yet, then proved. */
export async function restoreEmbedded(dataDir: string, opts: RestoreOptions): Promise<RestoreOutcome> {
  const manifest = readManifest(opts.from);
  if (manifest.database !== 'embedded') {
    throw new Error(`${opts.from} is a backup of PostgreSQL: restore it with DATABASE_URL set.`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir);
  try {
    const target = path.join(dataDir, EMBEDDED_DIR);
    if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
      throw new NotEmptyError(
        `Refusing to restore: ${target} already holds a database; restore into a DATA_DIR without one.`,
      );
    }
    opts.log(`Restoring the embedded database of ${manifest.takenAt} into ${target}…`);
    fs.cpSync(path.join(opts.from, EMBEDDED_DIR), target, { recursive: true });
    const images = await copyImagesBack(manifest, path.join(opts.from, IMAGES_DIR), opts.storage);
    const client = new PGlite(target, { parsers: { 20: Number, 1700: Number } });
    try {
      const db = drizzlePglite(client) as unknown as Db;
      return outcomeOf(manifest, await readFigures(db), images, await picturesWithoutImage(db, opts.storage));
    } finally {
      await client.close();
    }
  } finally {
    await release();
  }
}
