import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../server/src/test/server-process';
import { ensurePrograms } from './packages';
import { stopChild } from './ports';

const ETCD = '/usr/bin/etcd';

/**
 * One etcd member (Debian's etcd-server) holding Patroni's leader key (docs/operations.md, "Failover"). One member
 * is enough on one machine; on real machines run three, one per machine, so losing any one keeps a quorum.
 */
export class Etcd {
  private output = '';

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
  ) {
    child.stdout!.on('data', (d) => (this.output = (this.output + d).slice(-20_000)));
    child.stderr!.on('data', (d) => (this.output = (this.output + d).slice(-20_000)));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** `host:port`, as Patroni's `etcd3.hosts` lists it. */
  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  static async start(dir: string, name = 'etcd-1'): Promise<Etcd> {
    ensurePrograms({ [ETCD]: 'etcd-server' });
    const dataDir = path.join(dir, name);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const [client, peer] = [await freePort(), await freePort()];
    const peerUrl = `http://127.0.0.1:${peer}`;
    const clientUrl = `http://127.0.0.1:${client}`;
    const child = spawn(
      ETCD,
      [
        ...['--name', name, '--data-dir', dataDir],
        ...['--listen-client-urls', clientUrl, '--advertise-client-urls', clientUrl],
        ...['--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl],
        ...['--initial-cluster', `${name}=${peerUrl}`, '--initial-cluster-state', 'new'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const etcd = new Etcd(name, child, client, dataDir);
    for (let i = 0; i < 200 && child.exitCode === null && !(await etcd.healthy()); i++) await sleep(100);
    if (!(await etcd.healthy())) throw new Error(`etcd did not start on port ${client}:\n${etcd.output}`);
    return etcd;
  }

  private async healthy(): Promise<boolean> {
    const res = await fetch(`http://${this.host}/health`).catch(() => undefined);
    return res?.ok === true;
  }

  stop(): Promise<void> {
    return stopChild(this.child, 'SIGTERM');
  }
}
