import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { sqlRows, type Columns } from '../db/connection';
import type { mailOutbox } from './mail.tables';
import { mailOutboxJob } from '../jobs/mail-outbox.job';
import { runJob } from '../jobs/runner';
import { createServer, type RunningServer } from '../server';
import { freshPostgresDatabase } from '../test/databases';
import { startTestApp, TestClient, type TestApp } from '../test/harness';
import { MemoryMailer, type Mail, type Mailer } from './mailer';

/** A mail lost to a full disk or a mail server that is down is kept and sent later (issue 22 item 29). */

let clock = new Date('2026-11-24T09:00:00.000Z');
const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));
let seq = 0;
const account = () => ({
  username: `out_${process.pid % 1000}_${++seq}`,
  password: 'secret123',
  email: `out${seq}@example.test`,
  currentPath: '/',
});
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
/** A mailer whose next `failures` sends fail as a full disk makes them, then sends as `inner` does. */
function failing(inner: MemoryMailer, failures: number): Mailer {
  return {
    async send(mail: Mail) {
      if (failures-- > 0) throw enospc();
      await inner.send(mail);
    },
  };
}
const queued = async (app: Pick<TestApp, 'ctx'>) =>
  sqlRows(
    app.ctx.db,
    sql<Columns<typeof mailOutbox, 'attempts' | 'last_error'>>`SELECT attempts, last_error FROM mail_outbox`,
  );
const linkIn = (text: string) => new URL(/https?:\/\/\S+\/verify-email\?\S+/.exec(text)![0]);

describe('a verification mail the mailer refused', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('is kept, sent by the outbox once its retry is due, and its link works', async () => {
    t = await startTestApp({ now: () => clock });
    const delivered = t.mailer;
    (t.ctx as { mailer: Mailer }).mailer = failing(delivered, 1);
    const a = account();
    const res = await t.client().post('/api/auth/register', a);
    expect(res.statusCode, res.body).toBe(200); // the account exists; the mail's trouble is not the user's
    expect(delivered.sent).toEqual([]);
    expect(await queued(t)).toEqual([{ attempts: 1, last_error: expect.stringContaining('ENOSPC') }]);

    expect(await runJob(t.ctx, mailOutboxJob)).toBe(true);
    expect(delivered.sent).toEqual([]); // not due yet: the first retry waits 30 s
    tick(31_000);
    await runJob(t.ctx, mailOutboxJob);
    expect(delivered.sent.map((m) => m.to)).toEqual([a.email]);
    expect(await queued(t)).toEqual([]);

    const link = linkIn(delivered.sent[0]!.text);
    const verify = await t.client().post('/api/auth/verify-email', {
      userId: link.searchParams.get('userId'),
      secret: link.searchParams.get('secret'),
    });
    expect(verify.json()).toEqual({ message: 'Email verified. Thank you!' });
  });

  it('is dropped unsent once its link has expired', async () => {
    t = await startTestApp({ now: () => clock, env: { EMAIL_VERIFY_HOURS: '1' } });
    const delivered = t.mailer;
    (t.ctx as { mailer: Mailer }).mailer = failing(delivered, 100);
    await t.client().post('/api/auth/register', account());
    tick(3_600_000);
    (t.ctx as { mailer: Mailer }).mailer = delivered;
    await runJob(t.ctx, mailOutboxJob);
    expect(delivered.sent).toEqual([]);
    expect(await queued(t)).toEqual([]);
  });
});

describe('the outbox across a restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-outbox-'));
  const servers: RunningServer[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const s of servers) await s.close();
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends after the restart a mail that could not go before it', async () => {
    // The suite's database: PostgreSQL when DATABASE_URL is set, else the embedded one on disk under DATA_DIR.
    const pgdb = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL) : undefined;
    dropDatabase = pgdb?.drop;
    const config = loadConfig(
      { PORT: '3000' },
      { dataDir, databaseUrl: pgdb?.url, databaseDirectUrl: pgdb?.directUrl, serveWeb: false, redisUrl: undefined },
    );
    const start = (mailer: Mailer) => createServer(config, { mailer, logger: false, now: () => clock, jobs: [] });

    const before = await start(failing(new MemoryMailer(), 100));
    servers.push(before);
    const a = account();
    expect((await new TestClient(before).post('/api/auth/register', a)).statusCode).toBe(200);
    await before.close();

    const delivered = new MemoryMailer();
    const after = await start(delivered);
    servers.push(after);
    tick(31_000);
    await runJob(after.ctx, mailOutboxJob);
    expect(delivered.sent.map((m) => m.to)).toEqual([a.email]);
    expect(delivered.sent[0]!.senderName).toBe('The ultimate flex');
  });
});
