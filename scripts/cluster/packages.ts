import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Makes sure Debian's packages that provide these programs are installed: as root they are installed with apt (as
 * the test command does for Chromium), otherwise the missing ones are named and the caller stops.
 */
export function ensurePrograms(programs: Record<string, string>): void {
  const missing = Object.entries(programs).filter(([program]) => !fs.existsSync(program));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map(([, pkg]) => pkg))];
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Missing ${missing.map(([p]) => p).join(', ')}: run "sudo apt-get install -y ${packages.join(' ')}".`,
    );
  }
  console.log(`Installing ${packages.join(', ')} (apt-get install -y)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another install at the same moment (the browser tests' Chromium) holds dpkg's lock: wait for it.
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  execFileSync('apt-get', ['update', '-qq', ...wait], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...wait, ...packages], { stdio: 'inherit', env });
}

/** Every system program the tests and the cluster use, by the Debian package that provides it. */
export const SYSTEM_PROGRAMS: Record<string, string> = {
  '/usr/bin/chromium': 'chromium',
  '/usr/sbin/haproxy': 'haproxy',
  '/usr/sbin/pgbouncer': 'pgbouncer',
  '/usr/bin/patroni': 'patroni',
  '/usr/bin/etcd': 'etcd-server',
  '/usr/bin/redis-server': 'redis-server',
};
