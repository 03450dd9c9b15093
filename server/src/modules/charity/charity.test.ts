import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationLink } from '../../../../common/api/charity';
import type { AdminReport } from '../../../../common/api/admin';
import type { Notification } from '../../../../common/api/notifications';
import type { TransactionRow } from '../../../../common/api/transactions';
import { CHARITY_LINK_MAX_LENGTH, MAX_PENDING_LINKS, donationStatus } from '../../../../common/charity';
import type { LiveEvent } from '../../../../common/live';
import { sqlRows, type Columns } from '../../db/connection';
import type { chatMessages } from '../chat/chat.tables';
import type { users } from '../../db/core.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';

let clock = Date.parse('2026-05-01T12:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ now: () => new Date((clock += 1_000)) });
});
afterAll(() => t.close());

/** A charity tenant: any host that is not a cash host (CASH_HOSTS is localhost:3000 and 127.0.0.1:3000 here). */
const GREEN = { host: 'green.example', origin: 'http://green.example' };

interface Someone {
  id: number;
  username: string;
  badge: string;
  client: TestClient;
}

async function someone(opts: { isAdmin?: boolean; balance?: number } = {}): Promise<Someone> {
  const user = await makeUser(t.ctx, opts);
  const [row] = await sqlRows(
    t.ctx.db,
    sql<Columns<typeof users, 'badge'>>`SELECT badge FROM users WHERE id = ${user.id}`,
  );
  return { ...user, badge: row!.badge, client: await signIn(t, user.id) };
}

const send = (c: TestClient, body: unknown, headers: Record<string, string> = GREEN) =>
  c.request({ method: 'POST', url: '/api/charity-link/send', payload: body as object, headers });
const get = (c: TestClient, url: string, headers: Record<string, string> = GREEN) => c.get(url, headers);

async function sent(u: Someone, link = `give.example.org/${u.id}/${clock}`): Promise<DonationLink> {
  const res = await send(u.client, { link });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DonationLink>();
}

const approval = (id: number, over: Record<string, unknown> = {}) => ({
  charityLinkId: id,
  amount: 1234,
  charityName: 'Red Cross',
  adminCategory: 'Humanitarian aid',
  isPubliclyVisible: true,
  ...over,
});
const rejection = (id: number, over: Record<string, unknown> = {}) => ({
  charityLinkId: id,
  reason: 'The donation could not be verified.',
  charityName: 'UNICEF',
  adminCategory: 'Health',
  isPubliclyVisible: true,
  ...over,
});

const linkCount = async (senderId: number) =>
  (
    await sqlRows(
      t.ctx.db,
      sql<{ n: number }>`SELECT count(*)::int AS n FROM charity_links WHERE sender_id = ${senderId}`,
    )
  )[0]!.n;
const linkRow = async (id: number) =>
  (await sqlRows(t.ctx.db, sql<Record<string, unknown>>`SELECT * FROM charity_links WHERE id = ${id}`))[0];

let admin: Someone;
beforeAll(async () => {
  admin = await someone({ isAdmin: true });
});

describe('POST /api/charity-link/send', () => {
  it('stores a pending link quoting the sender’s badge and answers it', async () => {
    const u = await someone();
    const res = await send(u.client, { link: 'https://www.redcross.org/donate?ref=42' });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json<DonationLink>();
    expect(link).toMatchObject({
      link: 'https://www.redcross.org/donate?ref=42',
      badgeId: u.badge,
      decided: false,
      approved: false,
      charityName: null,
      adminCategory: null,
      adminRejectionReason: null,
      amount: null,
      publiclyVisible: false,
      sender: { id: u.id, username: u.username },
    });
    expect(donationStatus(link)).toBe('PENDING');
    expect(link.createdOn).toMatch(/^2026-05-01T/);
  });

  it('keeps the badge quoted at send time even if the user’s badge changes later', async () => {
    const u = await someone();
    const link = await sent(u);
    await t.ctx.db.execute(sql`UPDATE users SET badge = ${`NEW${u.id}`} WHERE id = ${u.id}`);
    const [mine] = (await get(u.client, '/api/charity-link/my-links')).json<DonationLink[]>();
    expect(mine).toMatchObject({ id: link.id, badgeId: u.badge });
  });

  it('refuses a link that breaks the rule with 400 on `link`, a readable first errorText, and stores nothing', async () => {
    const u = await someone();
    const bad: unknown[] = [
      { link: '' },
      { link: 'nodot' },
      { link: 'no dot.org' },
      { link: 'example.org/a b' },
      { link: ' example.org' },
      { link: 'example.c' },
      { link: 'example.12' },
      { link: `e.org/${'a'.repeat(CHARITY_LINK_MAX_LENGTH - 6 + 1)}` },
      { link: 42 },
      { link: null },
      { link: ['example.org'] },
      {},
      [],
    ];
    for (const body of bad) {
      const res = await send(u.client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const errors = res.json<{ field: string; errorText: string }[]>();
      expect(errors[0], JSON.stringify(body)).toEqual({ field: 'link', errorText: expect.any(String) });
      expect(errors[0]!.errorText).not.toMatch(/pattern|must/);
    }
    expect((await send(u.client, { link: `e.org/${'a'.repeat(CHARITY_LINK_MAX_LENGTH - 6 + 1)}` })).json()).toEqual([
      { field: 'link', errorText: `A link is at most ${CHARITY_LINK_MAX_LENGTH} characters.` },
    ]);
    expect((await send(u.client, { link: 'nodot' })).json()).toEqual([
      { field: 'link', errorText: 'Enter a link like example.org/donation, without spaces.' },
    ]);
    expect(await linkCount(u.id)).toBe(0);
    // The longest link allowed goes through.
    const longest = `e.org/${'a'.repeat(CHARITY_LINK_MAX_LENGTH - 6)}`;
    expect((await send(u.client, { link: longest })).statusCode).toBe(200);
    expect(await linkCount(u.id)).toBe(1);
  });

  it('answers 401 to a visitor and stores nothing', async () => {
    const res = await send(t.client(), { link: 'example.org' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Sign in first.' });
    expect((await get(t.client(), '/api/charity-link/my-links')).statusCode).toBe(401);
  });

  it(`lets a user have at most ${MAX_PENDING_LINKS} links waiting, and more once some are decided`, async () => {
    const u = await someone();
    const ids: number[] = [];
    for (let i = 0; i < MAX_PENDING_LINKS; i++) ids.push((await sent(u, `example.org/${i}`)).id);
    const refused = await send(u.client, { link: 'example.org/one-more' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual([{ field: 'link', errorText: expect.stringMatching(/waiting for a decision/) }]);
    expect(await linkCount(u.id)).toBe(MAX_PENDING_LINKS);
    expect((await admin.client.post('/api/admin/charity/reject', rejection(ids[0]!))).statusCode).toBe(200);
    expect((await send(u.client, { link: 'example.org/one-more' })).statusCode).toBe(200);
  });

  it('answers a replayed Idempotency-Key with the first link and stores one', async () => {
    const u = await someone();
    const headers = { ...GREEN, 'idempotency-key': 'send-once' };
    const first = await send(u.client, { link: 'example.org/once' }, headers);
    const again = await send(u.client, { link: 'example.org/once' }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await linkCount(u.id)).toBe(1);
  });
});

describe('tenants: donation links exist on charity hosts only', () => {
  it('answers 403 with a message on a cash host to send, my-links and public, and stores nothing', async () => {
    const u = await someone();
    const cash = { host: 'localhost:3000', origin: 'http://localhost:3000' };
    const res = await send(u.client, { link: 'example.org' }, cash);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/not available on this site/);
    expect((await get(u.client, '/api/charity-link/my-links', cash)).statusCode).toBe(403);
    expect((await get(u.client, '/api/charity-link/public', cash)).statusCode).toBe(403);
    expect((await get(t.client(), '/api/charity-link/public', cash)).statusCode).toBe(403);
    expect(await linkCount(u.id)).toBe(0);
  });

  it('treats every host that is not a cash host as a charity host', async () => {
    const u = await someone();
    const other = { host: 'charity.test:8080', origin: 'http://charity.test:8080' };
    expect((await send(u.client, { link: 'example.org' }, other)).statusCode).toBe(200);
  });
});

describe('the lists: who sees what', () => {
  let alice: Someone;
  let bob: Someone;
  let links: Record<'pending' | 'approvedPublic' | 'approvedHidden' | 'rejectedPublic' | 'bobPending', DonationLink>;
  beforeAll(async () => {
    alice = await someone();
    bob = await someone();
    links = {
      pending: await sent(alice, 'alice.example/pending'),
      approvedPublic: await sent(alice, 'alice.example/approved-public'),
      approvedHidden: await sent(alice, 'alice.example/approved-hidden'),
      rejectedPublic: await sent(alice, 'alice.example/rejected-public'),
      bobPending: await sent(bob, 'bob.example/pending'),
    };
    const ok = async (url: string, body: Record<string, unknown>) =>
      expect((await admin.client.post(url, body)).statusCode).toBe(200);
    await ok('/api/admin/charity/approve', approval(links.approvedPublic.id, { amount: 500 }));
    await ok('/api/admin/charity/approve', approval(links.approvedHidden.id, { isPubliclyVisible: false }));
    await ok('/api/admin/charity/reject', rejection(links.rejectedPublic.id, { reason: 'Not a charity.' }));
  });

  it('my-links: the caller’s own links only, every status, newest first, in full', async () => {
    const mine = (await get(alice.client, '/api/charity-link/my-links')).json<DonationLink[]>();
    expect(mine.map((l) => l.link)).toEqual([
      'alice.example/rejected-public',
      'alice.example/approved-hidden',
      'alice.example/approved-public',
      'alice.example/pending',
    ]);
    expect(mine.map(donationStatus)).toEqual(['REJECTED', 'APPROVED', 'APPROVED', 'PENDING']);
    expect(mine.every((l) => l.sender?.id === alice.id)).toBe(true);
    expect(mine[0]).toMatchObject({ adminRejectionReason: 'Not a charity.', charityName: 'UNICEF', amount: null });
    expect(mine[2]).toMatchObject({ amount: 500, charityName: 'Red Cross', adminCategory: 'Humanitarian aid' });
    const bobs = (await get(bob.client, '/api/charity-link/my-links')).json<DonationLink[]>();
    expect(bobs.map((l) => l.id)).toEqual([links.bobPending.id]);
  });

  it('public: only decided and publicly visible links, without sender or amount, to visitors too', async () => {
    for (const viewer of [t.client(), bob.client]) {
      const res = await get(viewer, '/api/charity-link/public');
      expect(res.statusCode).toBe(200);
      const list = res.json<DonationLink[]>();
      const ids = list.map((l) => l.id);
      expect(ids).toContain(links.approvedPublic.id);
      expect(ids).toContain(links.rejectedPublic.id);
      expect(ids).not.toContain(links.pending.id);
      expect(ids).not.toContain(links.approvedHidden.id);
      expect(ids).not.toContain(links.bobPending.id);
      expect(list.every((l) => l.decided && l.publiclyVisible)).toBe(true);
      expect(list.every((l) => l.sender === null && l.amount === null)).toBe(true);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(res.body).not.toContain(alice.username);
      expect(res.body).not.toContain(`"id":${alice.id},`);
      expect(list.find((l) => l.id === links.rejectedPublic.id)).toMatchObject({
        badgeId: alice.badge,
        link: 'alice.example/rejected-public',
        charityName: 'UNICEF',
        adminRejectionReason: 'Not a charity.',
        approved: false,
      });
    }
  });

  it('pages newest first with limit and beforeId, and refuses a limit out of range', async () => {
    const page = (await get(alice.client, '/api/charity-link/my-links?limit=2')).json<DonationLink[]>();
    expect(page.map((l) => l.link)).toEqual(['alice.example/rejected-public', 'alice.example/approved-hidden']);
    const next = (await get(alice.client, `/api/charity-link/my-links?limit=2&beforeId=${page[1]!.id}`)).json<
      DonationLink[]
    >();
    expect(next.map((l) => l.link)).toEqual(['alice.example/approved-public', 'alice.example/pending']);
    expect((await get(alice.client, '/api/charity-link/my-links?limit=0')).statusCode).toBe(400);
    expect((await get(alice.client, '/api/charity-link/my-links?limit=201')).statusCode).toBe(400);
  });

  it('admin: one user’s links and all links, every status, newest first, with sender and amount', async () => {
    const res = await admin.client.get(`/api/admin/user-donations/${alice.id}`);
    expect(res.statusCode).toBe(200);
    const hers = res.json<DonationLink[]>();
    expect(hers.map((l) => l.id)).toEqual([
      links.rejectedPublic.id,
      links.approvedHidden.id,
      links.approvedPublic.id,
      links.pending.id,
    ]);
    expect(hers[1]).toMatchObject({ sender: { id: alice.id, username: alice.username }, amount: 1234 });
    const all = (await admin.client.get('/api/admin/all-links')).json<DonationLink[]>();
    const ids = all.map((l) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids).toEqual(expect.arrayContaining(Object.values(links).map((l) => l.id)));
    expect((await admin.client.get('/api/admin/user-donations/999999999')).json()).toEqual([]);
    expect((await admin.client.get('/api/admin/user-donations/abc')).statusCode).toBe(400);
  });
});

describe('POST /api/admin/charity/approve and reject', () => {
  it('announces a send and each decision on the donations channel, with the link id and nothing else', async () => {
    const u = await someone();
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'donations' && seen.push(e));
    const first = await sent(u);
    const second = await sent(u);
    expect((await admin.client.post('/api/admin/charity/approve', approval(first.id))).statusCode).toBe(200);
    expect((await admin.client.post('/api/admin/charity/reject', rejection(second.id))).statusCode).toBe(200);
    // A refused decision changes nothing and announces nothing.
    expect((await admin.client.post('/api/admin/charity/reject', rejection(second.id))).statusCode).toBe(409);
    await new Promise((r) => setTimeout(r, 20));
    off();
    expect(seen).toEqual([
      { ch: 'donations', t: 'linkSent', m: { id: first.id } },
      { ch: 'donations', t: 'linkSent', m: { id: second.id } },
      { ch: 'donations', t: 'linkDecided', m: { id: first.id } },
      { ch: 'donations', t: 'linkDecided', m: { id: second.id } },
    ]);
  });

  it('approve credits exactly the amount to the sender, live, and tells them with a SYSTEM_MESSAGE', async () => {
    const u = await someone({ balance: 100 });
    const link = await sent(u);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => (e.ch === 'balance' || e.ch === 'notification') && seen.push(e));
    const res = await admin.client.post('/api/admin/charity/approve', approval(link.id, { amount: 1234 }));
    await new Promise((r) => setTimeout(r, 20));
    off();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...link,
      decided: true,
      approved: true,
      amount: 1234,
      charityName: 'Red Cross',
      adminCategory: 'Humanitarian aid',
      publiclyVisible: true,
    });
    expect(await availableBalance(t.ctx.db, u.id)).toBe(100 + 1234);
    expect(seen).toEqual(
      expect.arrayContaining([
        { ch: 'balance', t: 'update', m: { value: 1334 }, userId: u.id },
        { ch: 'notification', t: 'newNotification', m: { topic: 'SYSTEM_MESSAGE' }, userId: u.id },
      ]),
    );
    // Issue 13's SYSTEM_MESSAGE topic, from its real event, through the notifications API.
    const [n] = (await u.client.get('/api/user-notifications')).json<Notification[]>();
    expect(n).toMatchObject({
      b: { topic: 'SYSTEM_MESSAGE', seen: false },
      message: 'Your donation link to Red Cross was approved: $12.34 was added to your balance.',
      amount: 1234,
      username: null,
      multiplicity: 1,
    });
    expect((await u.client.get('/api/user-notifications/unread-count')).json()).toEqual({ value: 1 });
    expect((await get(u.client, '/api/charity-link/my-links')).json<DonationLink[]>()[0]).toMatchObject({
      id: link.id,
      approved: true,
    });
    expect(await linkRow(link.id)).toMatchObject({ decided_by: admin.id });
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('the credit shows on the sender’s statement as a CHARITY row naming the charity', async () => {
    const u = await someone();
    const link = await sent(u);
    await admin.client.post('/api/admin/charity/approve', approval(link.id, { amount: 250, charityName: 'WWF' }));
    expect((await u.client.get('/api/user-transactions')).json()).toMatchObject({ CHARITY: 250 });
    const list = (await u.client.get('/api/user-transactions/CHARITY')).json<TransactionRow[]>();
    expect(list).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(String),
        payAmount: 250,
        resourceId: String(link.id),
        resourcePreview: 'Donation to WWF',
      },
    ]);
  });

  it('reject stores the reason, moves no money and tells the sender with a SYSTEM_MESSAGE', async () => {
    const u = await someone({ balance: 300 });
    const link = await sent(u);
    const res = await admin.client.post(
      '/api/admin/charity/reject',
      rejection(link.id, { reason: 'The link does not show a donation.', isPubliclyVisible: false }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: link.id,
      decided: true,
      approved: false,
      amount: null,
      adminRejectionReason: 'The link does not show a donation.',
      charityName: 'UNICEF',
      adminCategory: 'Health',
      publiclyVisible: false,
    });
    expect(await availableBalance(t.ctx.db, u.id)).toBe(300);
    const [n] = (await u.client.get('/api/user-notifications')).json<Notification[]>();
    expect(n).toMatchObject({
      b: { topic: 'SYSTEM_MESSAGE' },
      message: 'Your donation link to UNICEF was rejected: The link does not show a donation.',
      amount: null,
    });
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('decides a link once: a second decision answers 409 and changes nothing', async () => {
    const u = await someone();
    const cases: [string, string][] = [
      ['approve', 'reject'],
      ['reject', 'approve'],
      ['approve', 'approve'],
      ['reject', 'reject'],
    ];
    for (const [first, second] of cases) {
      const link = await sent(u);
      const body = (kind: string) => (kind === 'approve' ? approval(link.id) : rejection(link.id));
      expect((await admin.client.post(`/api/admin/charity/${first}`, body(first))).statusCode).toBe(200);
      const before = { row: await linkRow(link.id), balance: await availableBalance(t.ctx.db, u.id) };
      const again = await admin.client.post(`/api/admin/charity/${second}`, body(second));
      expect(again.statusCode, `${first} then ${second}`).toBe(409);
      expect(again.json<{ message: string }>().message).toBe(
        `This donation link was already ${first === 'approve' ? 'approved' : 'rejected'}: a link is decided once.`,
      );
      expect({ row: await linkRow(link.id), balance: await availableBalance(t.ctx.db, u.id) }).toEqual(before);
    }
    const notes = (await u.client.get('/api/user-notifications')).json<Notification[]>();
    expect(notes).toHaveLength(4);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('answers 404 to an unknown link id', async () => {
    for (const path of ['approve', 'reject']) {
      const body = path === 'approve' ? approval(987654321) : rejection(987654321);
      const res = await admin.client.post(`/api/admin/charity/${path}`, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'No such donation link.' });
    }
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const u = await someone();
    const link = await sent(u);
    const bad: [string, Record<string, unknown>][] = [
      ['approve', approval(link.id, { amount: 0 })],
      ['approve', approval(link.id, { amount: -100 })],
      ['approve', approval(link.id, { amount: 12.5 })],
      ['approve', approval(link.id, { amount: 1e12 })],
      ['approve', approval(link.id, { amount: '1234' })],
      ['approve', approval(link.id, { amount: null })],
      ['approve', { ...approval(link.id), amount: undefined }],
      ['approve', approval(link.id, { charityName: '' })],
      ['approve', approval(link.id, { charityName: '   ' })],
      ['approve', approval(link.id, { adminCategory: 'x'.repeat(201) })],
      ['approve', approval(link.id, { isPubliclyVisible: 'yes' })],
      ['approve', approval(link.id, { charityLinkId: 0 })],
      ['approve', approval(link.id, { charityLinkId: '1' })],
      ['reject', rejection(link.id, { reason: '' })],
      ['reject', rejection(link.id, { reason: ' ' })],
      ['reject', { ...rejection(link.id), reason: undefined }],
      ['reject', rejection(link.id, { charityName: 7 })],
    ];
    const before = await linkRow(link.id);
    for (const [path, body] of bad) {
      const res = await admin.client.post(`/api/admin/charity/${path}`, body);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json<unknown[]>()[0]).toEqual({ field: expect.any(String), errorText: expect.any(String) });
    }
    expect(await linkRow(link.id)).toEqual(before);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(0);
    expect((await u.client.get('/api/user-notifications')).json()).toEqual([]);
  });

  it('a replayed Idempotency-Key returns the first answer and credits once; another body with it is refused', async () => {
    const u = await someone();
    const link = await sent(u);
    const headers = { 'idempotency-key': `approve-${link.id}` };
    const first = await admin.client.post('/api/admin/charity/approve', approval(link.id, { amount: 700 }), headers);
    const again = await admin.client.post('/api/admin/charity/approve', approval(link.id, { amount: 700 }), headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const other = await admin.client.post('/api/admin/charity/approve', approval(link.id, { amount: 900 }), headers);
    expect(other.statusCode).toBe(400);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(700);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});

describe('the option lists', () => {
  it('a fresh database holds default categories, names and rejection reasons (from the migration)', async () => {
    const categories = (await admin.client.get('/api/admin/charity-categories')).json<string[]>();
    const names = (await admin.client.get('/api/admin/charityNames')).json<string[]>();
    const reasons = (await admin.client.get('/api/admin/charity-rejection-reasons')).json<string[]>();
    expect(categories).toEqual(expect.arrayContaining(['Environment', 'Health', 'Human rights', 'Other']));
    expect(names).toEqual(expect.arrayContaining(['Red Cross', 'UNICEF', 'Doctors Without Borders']));
    expect(reasons).toEqual(expect.arrayContaining(['The donation could not be verified.']));
    for (const list of [categories, names, reasons]) expect(new Set(list).size).toBe(list.length);
  });

  it('grows by use: a name, category or reason an admin typed is offered next time, once whatever its case', async () => {
    const u = await someone();
    const one = await sent(u);
    const two = await sent(u);
    await admin.client.post(
      '/api/admin/charity/approve',
      approval(one.id, { charityName: 'Local Food Bank', adminCategory: 'Food', amount: 100 }),
    );
    await admin.client.post(
      '/api/admin/charity/reject',
      rejection(two.id, { charityName: 'red cross', adminCategory: 'food', reason: 'Screenshot only.' }),
    );
    const names = (await admin.client.get('/api/admin/charityNames')).json<string[]>();
    const categories = (await admin.client.get('/api/admin/charity-categories')).json<string[]>();
    expect(names).toContain('Local Food Bank');
    expect(names.filter((n) => n.toLowerCase() === 'red cross')).toEqual(['Red Cross']);
    expect(categories.filter((c) => c.toLowerCase() === 'food')).toEqual(['Food']);
    expect((await admin.client.get('/api/admin/charity-rejection-reasons')).json()).toContain('Screenshot only.');
  });
});

describe('GET /api/admin/reports', () => {
  it('lists reports of comments and chat messages newest first, with the reporter and the text', async () => {
    const writer = await someone({ balance: 10_000 });
    for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') await giveItems(t.ctx, writer.id, `COMMON_LETTER_${l}`, 1);
    const chat = await writer.client.post('/api/user/message', {
      message: 'buy cheap stuff here',
      sendAmount: 10_000,
      balance: 0,
    });
    expect(chat.statusCode, chat.body).toBe(200);
    const [message] = await sqlRows(
      t.ctx.db,
      sql<Columns<typeof chatMessages, 'id'>>`SELECT id FROM chat_messages WHERE sender_id = ${writer.id}`,
    );
    const reporter = await someone();
    const report = await reporter.client.post('/api/user/report-message', {
      messageId: message!.id,
      reason: 'spam',
      description: 'Advertising.',
      type: 'CHAT',
    });
    expect(report.statusCode, report.body).toBe(200);

    const res = await admin.client.get('/api/admin/reports');
    expect(res.statusCode).toBe(200);
    const [latest] = res.json<AdminReport[]>();
    expect(latest).toEqual({
      id: report.json<{ id: number }>().id,
      type: 'CHAT',
      messageId: message!.id,
      reason: 'spam',
      description: 'Advertising.',
      reporter: { id: reporter.id, username: reporter.username },
      messageText: 'buy cheap stuff here',
      createdOn: expect.any(String),
      decision: null,
    });
    expect((await admin.client.get('/api/admin/reports?limit=1')).json()).toHaveLength(1);
    expect((await admin.client.get(`/api/admin/reports?beforeId=${latest!.id}`)).json()).toEqual([]);
    expect((await admin.client.get('/api/admin/reports?limit=0')).statusCode).toBe(400);
    expect((await reporter.client.get('/api/admin/reports')).statusCode).toBe(403);
    expect((await t.client().get('/api/admin/reports')).statusCode).toBe(401);
  });
});

describe('every admin call refuses visitors (401) and non-admins (403), and changes nothing', () => {
  it('approve, reject and the lists', async () => {
    const u = await someone();
    const link = await sent(u);
    const stranger = await someone();
    const calls = [
      { method: 'POST' as const, url: '/api/admin/charity/approve', payload: approval(link.id) },
      { method: 'POST' as const, url: '/api/admin/charity/reject', payload: rejection(link.id) },
      { method: 'POST' as const, url: '/api/admin/charity/approve', payload: { amount: 'bad' } },
      { method: 'GET' as const, url: `/api/admin/user-donations/${u.id}` },
      { method: 'GET' as const, url: '/api/admin/user-donations/not-a-number' },
      { method: 'GET' as const, url: '/api/admin/all-links' },
      { method: 'GET' as const, url: '/api/admin/all-links?limit=9999' },
      { method: 'GET' as const, url: '/api/admin/charity-categories' },
      { method: 'GET' as const, url: '/api/admin/charityNames' },
      { method: 'GET' as const, url: '/api/admin/charity-rejection-reasons' },
      { method: 'GET' as const, url: '/api/admin/reports' },
    ];
    const before = { row: await linkRow(link.id), balance: await availableBalance(t.ctx.db, u.id) };
    for (const call of calls) {
      const visitor = await t.client().request(call);
      expect(visitor.statusCode, `${call.url} visitor`).toBe(401);
      const user = await stranger.client.request(call);
      expect(user.statusCode, `${call.url} user`).toBe(403);
      expect(user.json()).toEqual({ message: 'Administrators only.' });
    }
    expect({ row: await linkRow(link.id), balance: await availableBalance(t.ctx.db, u.id) }).toEqual(before);
    expect((await u.client.get('/api/user-notifications')).json()).toEqual([]);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});
