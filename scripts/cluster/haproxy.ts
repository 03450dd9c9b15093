import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensurePrograms } from './packages';
import { accepts, stopChild } from './ports';
import { renderDeployFile } from './render';

const HAPROXY = '/usr/sbin/haproxy';

export interface PostgresNodeAddress {
  name: string;
  port: number;
  /** Patroni's REST API, which HAProxy asks for the node's role. */
  restPort: number;
}

/** Debian's HAProxy: deploy/haproxy.cfg on `port` in front of the instances, or deploy/haproxy-postgres.cfg. */
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

  static start(dir: string, port: number, instances: { name: string; host: string; port: number }[]) {
    const servers = instances.map((i) => `    server ${i.name} ${i.host}:${i.port} check`).join('\n');
    return HaProxy.launch(dir, 'haproxy.cfg', port, { BIND: `127.0.0.1:${port}`, SERVERS: servers });
  }

  /**
   * The PostgreSQL side of `--ha` (deploy/haproxy-postgres.cfg): `port` leads to whichever node is primary, the next
   * free port (`replicaPort`) to a replica, each found by asking the nodes' Patroni REST API.
   */
  static async startPostgres(dir: string, port: number, replicaPort: number, nodes: PostgresNodeAddress[]) {
    const servers = nodes.map((n) => `    server ${n.name} 127.0.0.1:${n.port} check port ${n.restPort}`).join('\n');
    return HaProxy.launch(dir, 'haproxy-postgres.cfg', port, {
      PRIMARY_BIND: `127.0.0.1:${port}`,
      REPLICA_BIND: `127.0.0.1:${replicaPort}`,
      PRIMARY_SERVERS: servers,
      REPLICA_SERVERS: servers,
    });
  }

  private static async launch(dir: string, file: string, port: number, values: Record<string, string>) {
    ensurePrograms({ [HAPROXY]: 'haproxy' });
    fs.mkdirSync(dir, { recursive: true });
    const cfg = path.join(dir, file);
    fs.writeFileSync(cfg, renderDeployFile(file, { PID_FILE: path.join(dir, `${file}.pid`), ...values }));
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
