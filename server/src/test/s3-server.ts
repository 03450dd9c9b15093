import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3Config } from '../config';

export const TEST_BUCKET = 'wall-images';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * s3rver in a process of its own. Its ListObjectsV2 continuation tokens use DES, which OpenSSL 3 keeps in its legacy
 * provider, so the process runs with --openssl-legacy-provider (docs/decisions.md "Images in object storage"). It
 * prints its port once listening, and ends when its standard input closes (the test process ended, however).
 */
const SERVER = `
const S3rver = require('s3rver');
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(process.env.S3RVER_PORT),
  silent: true,
  directory: process.env.S3RVER_DIR,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET, configs: [] }],
});
server.run().then((address) => process.stdout.write(JSON.stringify({ port: address.port }) + '\\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/**
 * A local S3-compatible server (s3rver, from npm) that a test starts itself and talks to over real HTTP on
 * 127.0.0.1. `stop()` kills it (the bucket is down: connections refused) and `start()` brings it back on the same
 * port with the same objects.
 */
export interface TestS3 {
  port: number;
  /** The S3 settings that reach it (path style, its fixed credentials). */
  config: S3Config;
  /** The environment variables a separate process (npm run admin) needs to reach it. */
  env: Record<string, string>;
  /** The server's process id while it runs. */
  pid(): number | undefined;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function run(port: number, directory: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', SERVER], {
    cwd: root,
    env: { ...process.env, S3RVER_PORT: String(port), S3RVER_DIR: directory, S3RVER_BUCKET: TEST_BUCKET },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('s3rver did not start within 20 s')), 20_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${e.message}\n${err}`));
    };
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve({ child, port: (JSON.parse(line) as { port: number }).port });
      }
    });
    child.on('exit', (code) => fail(new Error(`s3rver exited with ${code}`)));
  });
}

export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-s3-'));
  const started = await run(0, directory);
  const { port } = started;
  let { child } = started;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    port,
    config: {
      bucket: TEST_BUCKET,
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    },
    env: {
      S3_BUCKET: TEST_BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    },
    pid: () => (child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    stop,
    async start() {
      ({ child } = await run(port, directory));
    },
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
