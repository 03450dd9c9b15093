import { spawn } from 'node:child_process';
import { repoRoot } from './server-process';

export interface AdminOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The settings a command takes from its caller's environment; a test gives its own instead (none of ours leak). */
const OWN_SETTINGS = /^(S3_|DATA_DIR$|DATABASE_|IMAGE_BASE_URL$|REDIS_)/;

/**
 * Runs `npm run admin -- …` as a person would (tsx on server/src/admin/cli.ts, from the repository), with `env` as
 * its settings and none of the calling process's database, Redis, data directory or bucket.
 */
export function runAdmin(args: string[], env: Record<string, string>): Promise<AdminOutcome> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !OWN_SETTINGS.test(name)));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/admin/cli.ts', ...args], {
      cwd: repoRoot,
      // The AWS SDK's one-line notice about Node versions is not the command's output.
      env: { ...inherited, NODE_NO_WARNINGS: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
