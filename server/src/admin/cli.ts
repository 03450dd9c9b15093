import { loadConfig } from '../config';
import { DataDirLockedError, openDatabase } from '../db/connection';
import { transact } from '../db/unit-of-work';
import { forwardShares } from '../modules/goodwill/goodwill.service';
import { localStorageFor } from '../storage/local-disk';
import { setAdmin } from './admins';
import { backupCommand, restoreCommand } from './backup-commands';
import { copyImages } from './copy-images';

/**
 * `npm run admin -- grant|revoke USERNAME`: administrator rights, set directly in the configured database
 * (DATABASE_URL, else the embedded database under DATA_DIR, which the running server holds locked).
 * `npm run admin -- forward-goodwill`: forwards every cause's payable now, as the monthly job does (one batch per
 * cause; it waits for a forwarding running elsewhere, then forwards only what is left), each user whose shares went
 * getting a GOODWILL push.
 * `npm run admin -- copy-images-to-s3`: copies the images under DATA_DIR/images into the S3 bucket that S3_BUCKET
 * and the other S3_ variables name (admin/copy-images.ts); the database is not opened, so servers may be running.
 * `npm run admin -- backup [--out DIR]` and `restore --from DIR`: admin/backup.ts, docs/operations.md "Backups and
 * restore".
 */
const USAGE =
  'Usage: npm run admin -- grant USERNAME | revoke USERNAME | forward-goodwill | copy-images-to-s3 | ' +
  'backup [--out DIR] | restore --from DIR';

async function copyImagesToS3(): Promise<number> {
  const config = loadConfig();
  if (!config.s3) {
    console.error('S3_BUCKET is not set: say which bucket to copy the images into (README, "Environment").');
    return 1;
  }
  const { s3StorageFor } = await import('../storage/s3');
  const bucket = s3StorageFor(config.s3);
  try {
    const outcome = await copyImages(localStorageFor(config.dataDir), bucket);
    console.log(`Copied ${outcome.copied} images into ${config.s3.bucket}; ${outcome.present} were there already.`);
    for (const key of outcome.damaged) console.error(`Not copied: ${key} does not match its content's hash.`);
    return outcome.damaged.length > 0 ? 1 : 0;
  } finally {
    bucket.close();
  }
}

async function main(args: string[]): Promise<number> {
  if (args[0] === 'copy-images-to-s3' && args.length === 1) return copyImagesToS3();
  if (args[0] === 'backup' && (args.length === 1 || (args.length === 3 && args[1] === '--out' && args[2]))) {
    return backupCommand(args[2]);
  }
  if (args[0] === 'restore' && args.length === 3 && args[1] === '--from' && args[2]) return restoreCommand(args[2]);
  const [command, username, ...rest] = args;
  const forward = command === 'forward-goodwill' && !username;
  if (!forward && ((command !== 'grant' && command !== 'revoke') || !username || rest.length > 0)) {
    console.error(USAGE);
    return 1;
  }
  const config = loadConfig();
  let database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      directUrl: config.databaseDirectUrl,
      dataDir: config.dataDir,
      poolSize: 1,
    });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  try {
    if (forward) {
      const batches = await transact({ db: database.db, bus: { send: async () => undefined } }, (work) =>
        forwardShares(work, { now: new Date() }),
      );
      if (batches.length === 0) console.log('Nothing to forward.');
      for (const b of batches) console.log(`${b.reference}: ${b.cause} ${(b.amount / 100).toFixed(2)}`);
      return 0;
    }
    const granted = command === 'grant';
    const name = await setAdmin(database.db, username!, granted);
    if (name === undefined) {
      console.error(`No user named ${username}.`);
      return 1;
    }
    console.log(granted ? `${name} is now an administrator.` : `${name} is no longer an administrator.`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
