import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * The embedded database in memory (tests) starts from a copy of a freshly migrated one, kept in the temporary
 * directory under a hash of the migrations: a fresh PGlite runs initdb, about 3 s of CPU each time, while loading the
 * copy takes about 1 s (docs/decisions.md, "An in-memory database from a migrated copy"). The caller still runs the
 * migrations on it, which find nothing to do, so a stale or foreign copy can never leave a schema behind.
 */
export async function openMemoryPglite(
  migrationsFolder: string,
  options: PGliteOptions,
  migrate: (client: PGlite) => Promise<void>,
): Promise<PGlite> {
  const file = templateFile(migrationsFolder);
  const saved = readTemplate(file);
  if (saved) return PGlite.create({ ...options, loadDataDir: saved });
  const client = await PGlite.create(options);
  await migrate(client);
  await saveTemplate(client, file);
  return client;
}

function templateFile(migrationsFolder: string): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion());
  for (const name of fs.readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsFolder, name);
    if (fs.statSync(full).isFile()) hash.update(name).update(fs.readFileSync(full));
  }
  return path.join(os.tmpdir(), `wall-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** A copy made by another PGlite version may not load: the version is part of the file's name. */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    return String(
      (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version,
    );
  } catch {
    return 'unknown';
  }
}

function readTemplate(file: string): Blob | undefined {
  try {
    return new Blob([fs.readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/** Written to a file of its own first, then renamed: a reader never sees half a copy. */
async function saveTemplate(client: PGlite, file: string): Promise<void> {
  try {
    const dump = await client.dumpDataDir('none');
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  } catch {
    // Without a copy the next database runs initdb again: slower, never wrong.
  }
}
