import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../server/src/test/server-process';
import { accepts, stopChild } from './ports';

/** A Redis server of the project's own on a free port, keeping nothing on disk. */
export class RedisServer {
  private child: ChildProcess | undefined;
  readonly url: string;

  private constructor(readonly port: number) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  static async create(): Promise<RedisServer> {
    const redis = new RedisServer(await freePort());
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
    for (let i = 0; i < 100 && !(await accepts(this.port)); i++) await sleep(50);
  }

  async stop(): Promise<void> {
    if (this.child) await stopChild(this.child, 'SIGKILL');
  }
}
