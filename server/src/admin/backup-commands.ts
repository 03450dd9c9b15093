import path from 'node:path';
import { loadConfig, type Config } from '../config';
import { DataDirLockedError } from '../db/connection';
import { openStorage } from '../storage/open-storage';
import type { Storage } from '../storage/storage';
import {
  backupEmbedded,
  backupPostgres,
  NotEmptyError,
  restoreEmbedded,
  restorePostgres,
  type RestoreOutcome,
} from './backup';

/** `npm run admin -- backup` and `restore` as a person runs them (admin/backup.ts, docs/operations.md). */

const storageName = (config: Config) =>
  config.s3 ? `s3://${config.s3.bucket}` : path.resolve(config.dataDir, 'images');

/** PostgreSQL itself: the backup exports a snapshot from its session, which a transaction pooler would not keep. */
const postgresUrl = (config: Config) => config.databaseDirectUrl ?? config.databaseUrl;

/** `backup-2025-01-31T12-00-00Z` in the current directory. */
const defaultOut = () =>
  `backup-${new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')}`;

const log = (line: string) => console.log(line);

/**
 * Runs a command with the storage open: a refusal the operator can act on (a database that is not empty, a data
 * directory in use) is one line and exit 1; any other failure is thrown.
 */
async function withStorage(config: Config, run: (storage: Storage) => Promise<number>): Promise<number> {
  const storage = await openStorage(config);
  try {
    return await run(storage);
  } catch (err) {
    if (!(err instanceof NotEmptyError || err instanceof DataDirLockedError)) throw err;
    console.error(err.message);
    return 1;
  } finally {
    storage.close?.();
  }
}

export async function backupCommand(outArg: string | undefined): Promise<number> {
  const config = loadConfig();
  const out = path.resolve(outArg ?? defaultOut());
  return withStorage(config, async (storage) => {
    const url = postgresUrl(config);
    const opts = { out, storage, storageName: storageName(config), log };
    const manifest = url ? await backupPostgres(url, opts) : await backupEmbedded(config.dataDir, opts);
    console.log(
      `Backed up into ${out} in ${(manifest.durationMs / 1000).toFixed(1)} s: ` +
        `${manifest.counts.journal_entries} ledger entries as of ${manifest.takenAt}, ledger check ` +
        `${manifest.ledger.ok ? 'ok' : 'NOT ok'}, ${manifest.images.count} images (${manifest.images.bytes} bytes).`,
    );
    return manifest.ledger.ok ? 0 : 1;
  });
}

function report(outcome: RestoreOutcome): void {
  const { ledger } = outcome.figures;
  console.log(`Ledger check: ${ledger.ok ? 'ok' : 'NOT ok'} ${JSON.stringify(ledger)}`);
  console.log(
    `Images: ${outcome.images.restored} restored, ${outcome.images.present} already there, ` +
      `${outcome.images.missing.length} missing.`,
  );
  for (const key of outcome.images.missing) console.error(`Missing image: ${key}`);
  for (const key of outcome.picturesWithoutImage) console.error(`A picture's image is not in the storage: ${key}`);
  for (const line of outcome.differences) console.error(`Differs from the backup: ${line}`);
  console.log(outcome.ok ? 'Restore ok: the figures are the backup’s.' : 'Restore NOT ok.');
}

export async function restoreCommand(from: string): Promise<number> {
  const config = loadConfig();
  return withStorage(config, async (storage) => {
    const url = postgresUrl(config);
    const opts = { from: path.resolve(from), storage, log };
    const outcome = url ? await restorePostgres(url, opts) : await restoreEmbedded(config.dataDir, opts);
    report(outcome);
    return outcome.ok ? 0 : 1;
  });
}
