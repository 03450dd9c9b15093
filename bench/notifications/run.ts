/**
 * A user with 100,000 notification events: the bell's unread count, the bubble's preview and the first page of each
 * list, served by the real app (through `inject`, so the figures are the server's own time) on PostgreSQL.
 *
 *   npm run bench:notifications
 *   NOTIFICATION_EVENTS=1000000 BENCH_DATABASE_URL=postgres://... npm run bench:notifications
 *
 * Two states of the same user: everything unread (the worst case for read-time folding: 100,000 unseen events on
 * 25,000 pictures, about 50,000 notifications), then all of it read and 100 new unseen events.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { sqlRows } from '../../server/src/db/connection';
import { makeUser, signIn } from '../../server/src/test/factories';
import { startTestApp, type TestClient } from '../../server/src/test/harness';

const baseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const events = Number(process.env.NOTIFICATION_EVENTS ?? 100_000);
const repeats = Number(process.env.NOTIFICATION_REPEATS ?? 200);

const t = await startTestApp({ postgresUrl: baseUrl });
const user = await makeUser(t.ctx);
const actors = await Promise.all(Array.from({ length: 5 }, () => makeUser(t.ctx)));
const client = await signIn(t, user.id);

/** `count` events for the user: comments and likes from five actors on `pictures` pictures, oldest first. */
async function fill(count: number, pictures: number, offset = 0): Promise<void> {
  const ids = actors.map((a) => a.id);
  await t.ctx.db.execute(
    sql`INSERT INTO notification_events (user_id, topic, actor_id, picture_id, comment_id, amount, target, created_at)
        SELECT ${user.id}, CASE WHEN g % 2 = 0 THEN 'IMAGE_COMMENT' ELSE 'IMAGE_LIKE' END,
               (ARRAY[${sql.join(
                 ids.map((id) => sql`${id}::bigint`),
                 sql`, `,
               )}])[1 + g % 5], 1000000 + (g + ${offset}) % ${pictures}, g, 100,
               'p:' || (1000000 + (g + ${offset}) % ${pictures}), now() - make_interval(secs => ${count} - g)
        FROM generate_series(1, ${count}) g`,
  );
  await t.ctx.db.execute(sql`ANALYZE notification_events`);
}

async function time(c: TestClient, url: string): Promise<{ median: number; p99: number }> {
  const spent: number[] = [];
  for (let i = 0; i < repeats + 20; i++) {
    const started = performance.now();
    const res = await c.get(url);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    if (i >= 20) spent.push(performance.now() - started);
  }
  spent.sort((a, b) => a - b);
  return { median: spent[Math.floor(spent.length / 2)]!, p99: spent[Math.floor(spent.length * 0.99)]! };
}

const ROUTES = [
  ['unread count', '/api/user-notifications/unread-count'],
  ['preview (newest 5 + count)', '/api/user-notifications/preview'],
  ['list ALL, first page (20)', '/api/user-notifications?filter=ALL'],
  ['list UNREAD, first page', '/api/user-notifications?filter=UNREAD'],
  ['list READ, first page', '/api/user-notifications?filter=READ'],
] as const;

const table: string[] = [];
async function state(name: string): Promise<void> {
  const unread = ((await client.get('/api/user-notifications/unread-count')).json() as { value: number }).value;
  console.log(`${name}: ${unread.toLocaleString('en')} unread notifications`);
  for (const [label, url] of ROUTES) {
    const m = await time(client, url);
    table.push(`| ${name} | ${label} | ${m.median.toFixed(2)} | ${m.p99.toFixed(2)} |`);
    console.log(table.at(-1));
  }
}

console.log(
  `notifications bench: ${os.cpus().length} cores, ${events.toLocaleString('en')} events, ${repeats} calls a route`,
);
let started = Date.now();
await fill(events, events / 4);
console.log(`filled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await state(`${events.toLocaleString('en')} unread events`);

started = Date.now();
const res = await client.post('/api/user-notifications/read-all');
if (res.statusCode !== 200) throw new Error(res.body);
console.log(`read-all of ${events.toLocaleString('en')} events: ${Date.now() - started} ms`);
// What autovacuum does soon after a mass update: the partial indexes drop the rows read-all moved out of them.
await t.ctx.db.execute(sql`VACUUM ANALYZE notification_events`);
await fill(100, 50, 7);
await state(`${events.toLocaleString('en')} read + 100 unread`);

const plan = await sqlRows<{ 'QUERY PLAN': string }>(
  t.ctx.db,
  sql`EXPLAIN SELECT count(*) FROM (SELECT 1 FROM notification_events WHERE user_id = ${user.id} AND NOT seen
      GROUP BY topic, target) g`,
);
console.log(`unread count plan:\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);

console.log('\n| state | call | median ms | p99 ms |\n|---|---|---|---|');
console.log(table.join('\n'));
console.log('\nRerun: npm run bench:notifications');
await t.close();
