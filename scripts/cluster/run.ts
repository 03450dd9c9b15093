// `npm run cluster`: the whole topology on this machine (docs/scaling.md, "npm run cluster"): HAProxy on PORT →
// CLUSTER_INSTANCES instances (3) → PgBouncer → a PostgreSQL primary with a streaming replica, and Redis, all under
// CLUSTER_DIR (a new temporary directory by default). When it is healthy it prints one line `CLUSTER {json}` and
// writes the same JSON to $CLUSTER_DIR/cluster.json, rewritten when a role changes; SIGINT or SIGTERM stops
// everything it started. `--ha` adds the failover pieces (docs/operations.md, "Failover").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuiltWeb } from '../built-web.mjs';
import { Topology, type ClusterDescription } from './topology';

const dir = process.env.CLUSTER_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'wall-cluster-'));
fs.mkdirSync(dir, { recursive: true });
// PostgreSQL and PgBouncer run as the postgres user when this runs as root: they must reach their folders.
fs.chmodSync(dir, 0o755);
const port = Number(process.env.PORT || 3000);
const instances = Number(process.env.CLUSTER_INSTANCES || 3);
const web = process.env.SERVE_WEB !== '0';
const ha = process.argv.includes('--ha');

if (web) await ensureBuiltWeb();
const say = (line: string) => console.error(`cluster: ${line}`);
say(`starting under ${dir}`);
const topology = await Topology.start({ dir, port, instances, web, ha }, say);

const file = path.join(dir, 'cluster.json');
/** Written whole under another name, then renamed: a reader never sees half a file. */
const write = (description: ClusterDescription) => {
  fs.writeFileSync(`${file}.new`, `${JSON.stringify(description, null, 2)}\n`);
  fs.renameSync(`${file}.new`, file);
};
const first = topology.describe();
let written = JSON.stringify(first);
write(first);
console.log(`CLUSTER ${written}`);
say(`ready: ${topology.url} (Ctrl-C stops everything)`);

// Roles, and the processes of a node, change on a failover: the file follows within a second.
const watch = setInterval(() => {
  void topology.refreshRoles().then(() => {
    const now = topology.describe();
    if (stopping || JSON.stringify(now) === written) return;
    written = JSON.stringify(now);
    write(now);
    say(`roles: ${topology.roleSummary()}`);
  });
}, 1_000);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    say('stopping...');
    topology.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
