import { loadConfig } from '../config';
import { DataDirLockedError, openDatabase } from '../db/connection';
import { setAdmin } from './admins';

/**
 * `npm run admin -- grant|revoke USERNAME`: administrator rights, set directly in the configured database
 * (DATABASE_URL, else the embedded database under DATA_DIR, which the running server holds locked).
 */
const USAGE = 'Usage: npm run admin -- grant USERNAME | revoke USERNAME';

async function main(args: string[]): Promise<number> {
  const [command, username, ...rest] = args;
  if ((command !== 'grant' && command !== 'revoke') || !username || rest.length > 0) {
    console.error(USAGE);
    return 1;
  }
  const config = loadConfig();
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  try {
    const granted = command === 'grant';
    const name = await setAdmin(database.db, username, granted);
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
