import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensurePrograms } from './packages';
import { accepts, stopChild } from './ports';
import { renderDeployFile } from './render';

const HAPROXY = '/usr/sbin/haproxy';

/** Debian's HAProxy with deploy/haproxy.cfg, on `port`, in front of the given instances. */
export class HaProxy {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** What HAProxy logged (servers going up and down). */
  log(): string {
    return this.output;
  }

  static async start(dir: string, port: number, instances: { name: string; host: string; port: number }[]) {
    ensurePrograms({ [HAPROXY]: 'haproxy' });
    fs.mkdirSync(dir, { recursive: true });
    const cfg = path.join(dir, 'haproxy.cfg');
    const servers = instances.map((i) => `    server ${i.name} ${i.host}:${i.port} check`).join('\n');
    fs.writeFileSync(
      cfg,
      renderDeployFile('haproxy.cfg', {
        PID_FILE: path.join(dir, 'haproxy.pid'),
        BIND: `127.0.0.1:${port}`,
        SERVERS: servers,
      }),
    );
    // -db: in the foreground, so it stops with this process's signal; -W: master-worker.
    const child = spawn(HAPROXY, ['-W', '-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
    const proxy = new HaProxy(child, port);
    for (let i = 0; i < 100 && child.exitCode === null && !(await accepts(port)); i++) await sleep(50);
    if (!(await accepts(port))) throw new Error(`HAProxy did not start on port ${port}:\n${proxy.output}`);
    return proxy;
  }

  stop(): Promise<void> {
    return stopChild(this.child, 'SIGTERM');
  }
}
