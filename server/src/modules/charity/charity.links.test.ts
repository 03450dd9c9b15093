import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationLink } from '../../../../common/api/charity';
import { charityLinkKey, CHARITY_LINK_TEXT } from '../../../../common/charity';
import { sqlRows, type Columns } from '../../db/connection';
import type { charityLinks } from './charity.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { TEXT } from './charity.commands';

/*
 * One donation, credited once, and only web links (docs/decisions.md, "One donation, credited once" and "Web links
 * only"): a link whose normal form is pending or approved is refused to anyone; an approval re-checks it in its
 * transaction, so copies stored before the rule cannot both be approved; a javascript: or data: link is refused.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  await t.close();
});

const GREEN = { host: 'green.example', origin: 'http://green.example' };

async function someone(isAdmin = false): Promise<{ id: number; client: TestClient }> {
  const user = await makeUser(t.ctx, { isAdmin });
  return { id: user.id, client: await signIn(t, user.id) };
}

const send = (c: TestClient, link: string) =>
  c.request({ method: 'POST', url: '/api/charity-link/send', payload: { link }, headers: GREEN });
const decide = (c: TestClient, kind: 'approve' | 'reject', id: number) =>
  c.request({
    method: 'POST',
    url: `/api/admin/charity/${kind}`,
    headers: GREEN,
    payload: {
      charityLinkId: id,
      charityName: 'Red Cross',
      adminCategory: 'Humanitarian aid',
      isPubliclyVisible: true,
      ...(kind === 'approve' ? { amount: 5000 } : { reason: 'Could not be verified.' }),
    },
  });

const linkCount = async () =>
  (await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM charity_links`))[0]!.n;

/** A link as it was stored before the rule: no key (or the migration's), straight into the table. */
async function legacyLink(senderId: number, link: string): Promise<number> {
  const [row] = await sqlRows(
    t.ctx.db,
    sql<
      Columns<typeof charityLinks, 'id'>
    >`INSERT INTO charity_links (sender_id, link, badge) VALUES (${senderId}, ${link}, 'OLD') RETURNING id`,
  );
  return row!.id;
}

describe('sending a donation link', () => {
  it('refuses the same donation a second time, whoever sends it and however the link is written', async () => {
    const [a, b] = [await someone(), await someone()];
    const first = await send(a.client, 'https://give.example.org/receipt/77');
    expect(first.statusCode, first.body).toBe(200);
    const before = await linkCount();
    for (const [who, copy] of [
      [a, 'https://give.example.org/receipt/77'],
      [b, 'HTTP://www.Give.Example.org:80/receipt/77/#done'],
      [b, 'give.example.org/receipt/77'],
    ] as const) {
      const again = await send(who.client, copy);
      expect(again.statusCode, copy).toBe(400);
      expect(again.json()).toEqual([{ field: 'link', errorText: CHARITY_LINK_TEXT.taken }]);
    }
    expect(await linkCount()).toBe(before);
    // Another receipt on the same site is another donation.
    expect((await send(b.client, 'https://give.example.org/receipt/78')).statusCode).toBe(200);
  });

  it('refuses it after its approval too; a rejected link may be sent again', async () => {
    const [sender, admin] = [await someone(), await someone(true)];
    const approved = (await send(sender.client, 'https://approved.example.org/d/1')).json<DonationLink>();
    expect((await decide(admin.client, 'approve', approved.id)).statusCode).toBe(200);
    expect((await send(sender.client, 'approved.example.org/d/1')).statusCode).toBe(400);

    const rejected = (await send(sender.client, 'https://rejected.example.org/d/1')).json<DonationLink>();
    expect((await decide(admin.client, 'reject', rejected.id)).statusCode).toBe(200);
    expect((await send(sender.client, 'https://rejected.example.org/d/1')).statusCode).toBe(200);
  });

  it('refuses a link that is not a web link (javascript:, data:) and stores nothing', async () => {
    const sender = await someone();
    const before = await linkCount();
    for (const link of ['javascript://example.com/%0Aalert(1)', 'data://text/html,x.com', 'JavaScript:alert(1).com']) {
      const res = await send(sender.client, link);
      expect(res.statusCode, link).toBe(400);
      expect(res.json()).toEqual([{ field: 'link', errorText: CHARITY_LINK_TEXT.notWeb }]);
    }
    expect(await linkCount()).toBe(before);
  });
});

describe('approving a donation link re-checks it in its transaction', () => {
  it('two pending copies stored before the rule: the first is credited, the second refused and credits nothing', async () => {
    const [a, b, admin] = [await someone(), await someone(), await someone(true)];
    const first = await legacyLink(a.id, 'https://old.example.org/gift/5');
    const copy = await legacyLink(b.id, 'http://www.old.example.org/gift/5/');
    expect((await decide(admin.client, 'approve', first)).statusCode).toBe(200);
    const refused = await decide(admin.client, 'approve', copy);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: TEXT.copyOf(first) });
    expect(await availableBalance(t.ctx.db, a.id)).toBe(5000);
    expect(await availableBalance(t.ctx.db, b.id)).toBe(0);
    // The admin rejects the copy: that is allowed, and moves nothing.
    expect((await decide(admin.client, 'reject', copy)).statusCode).toBe(200);
    expect(await availableBalance(t.ctx.db, b.id)).toBe(0);
  });

  it('a stored javascript: link cannot be approved', async () => {
    const [a, admin] = [await someone(), await someone(true)];
    const id = await legacyLink(a.id, 'javascript://example.com/%0Aalert(1)');
    const res = await decide(admin.client, 'approve', id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: TEXT.notWebLink });
    expect(await availableBalance(t.ctx.db, a.id)).toBe(0);
    expect((await decide(admin.client, 'reject', id)).statusCode).toBe(200);
  });
});

describe("migration 0011's rendering of the rule", () => {
  it('keys the links stored before it as the app does', async () => {
    for (const link of [
      'https://give.example.org/receipt/77',
      'HTTP://www.Give.Example.org:80/receipt/77/#done',
      'give.example.org/receipt/77',
      'https://user@give.example.org.:443//receipt//77//',
      'https://x.org/d?b=2&a=1&utm_source=mail&',
      'example.org:8080/give',
      'https://x.org',
      'x.org/?',
    ]) {
      const [row] = await sqlRows(t.ctx.db, sql<{ key: string }>`SELECT charity_link_key_v1(${link}) AS key`);
      expect(row!.key, link).toBe(charityLinkKey(link));
      const [hashed] = await sqlRows(
        t.ctx.db,
        sql<{ h: string }>`SELECT encode(sha256(convert_to(charity_link_key_v1(${link}), 'UTF8')), 'hex') AS h`,
      );
      expect(hashed!.h).toBe(createHash('sha256').update(charityLinkKey(link)!, 'utf8').digest('hex'));
    }
  });
});
