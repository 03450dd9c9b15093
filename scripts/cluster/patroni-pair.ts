import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../../server/src/test/server-process';
import { Etcd } from './etcd';
import { HaProxy } from './haproxy';
import { PatroniNode, type Role } from './patroni';
import type { Component } from './topology';

/**
 * `npm run cluster -- --ha`'s PostgreSQL (docs/operations.md, "Failover"): two Patroni nodes, a primary and its
 * synchronous standby, with their leader key in etcd, behind an HAProxy of their own whose primary port always
 * leads to whichever node is primary and whose replica port to the other. Nothing in front of it changes its
 * address on a failover.
 */
export class PatroniPair {
  readonly roles = new Map<string, Role>();

  private constructor(
    readonly etcd: Etcd,
    readonly nodes: PatroniNode[],
    readonly proxy: HaProxy,
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  static async start(dir: string, say: (line: string) => void): Promise<PatroniPair> {
    say('etcd...');
    const etcd = await Etcd.start(dir);
    const nodes: PatroniNode[] = [];
    let proxy: HaProxy | undefined;
    try {
      for (const name of ['postgres-1', 'postgres-2']) nodes.push(await PatroniNode.create(dir, name, [etcd.host]));
      const [first, second] = nodes as [PatroniNode, PatroniNode];
      say('PostgreSQL postgres-1 (Patroni, initdb)...');
      first.start();
      await first.waitFor('primary');
      say('PostgreSQL postgres-2 (Patroni, a synchronous standby)...');
      second.start();
      await second.waitFor('replica');
      await second.waitForSync();
      const [primaryPort, replicaPort] = [await freePort(), await freePort()];
      proxy = await HaProxy.startPostgres(path.join(dir, 'haproxy-postgres'), primaryPort, replicaPort, nodes);
      const pair = new PatroniPair(etcd, nodes, proxy, primaryPort, replicaPort);
      await pair.createDatabase();
      await pair.refreshRoles();
      return pair;
    } catch (err) {
      await proxy?.stop();
      for (const node of nodes) await node.stop();
      await etcd.stop();
      throw err;
    }
  }

  /** The app's database on whichever node is primary, through HAProxy. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.primaryPort}/wall`;
  }

  /** The same on whichever node is a replica (DATABASE_READ_URL). */
  get readUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.replicaPort}/wall`;
  }

  node(name: string): PatroniNode {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`No node ${name}`);
    return node;
  }

  /** The node Patroni last reported as primary. */
  primary(): PatroniNode | undefined {
    return this.nodes.find((n) => this.roles.get(n.name) === 'primary');
  }

  /** Asks each node's Patroni for its role; true when one changed since the last time. */
  async refreshRoles(): Promise<boolean> {
    let changed = false;
    for (const node of this.nodes) {
      const role = await node.role();
      if (this.roles.get(node.name) !== role) changed = true;
      this.roles.set(node.name, role);
    }
    return changed;
  }

  components(): Component[] {
    const local = { host: '127.0.0.1' };
    return [
      { name: 'haproxy-postgres', role: '', ...local, port: this.primaryPort, pid: this.proxy.pid },
      ...this.nodes.map((n) => {
        const pids = n.pids;
        return {
          name: n.name,
          role: this.roles.get(n.name) ?? '',
          ...local,
          port: n.port,
          pid: pids[0],
          pids,
          dataDir: n.dataDir,
        } satisfies Component;
      }),
      {
        name: this.etcd.name,
        role: '',
        ...local,
        port: this.etcd.port,
        pid: this.etcd.pid,
        dataDir: this.etcd.dataDir,
      },
    ];
  }

  /** Waits for HAProxy to find the primary (its check passes within a second or two), then creates `wall`. */
  private async createDatabase(ms = 30_000): Promise<void> {
    for (const deadline = Date.now() + ms; ; await sleep(250)) {
      const admin = new pg.Client({ connectionString: this.url.replace(/\/wall$/, '/postgres') });
      admin.on('error', () => {});
      try {
        await admin.connect();
        await admin.query('CREATE DATABASE wall');
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      } finally {
        await admin.end().catch(() => {});
      }
    }
  }

  async stop(): Promise<void> {
    await this.proxy.stop();
    await Promise.all(this.nodes.map((n) => n.stop()));
    await this.etcd.stop();
  }
}
