import type { Browser, Page } from '@playwright/test';
import type { DonationLink } from '../common/api/charity';
import type { MessageSent } from '../common/api/chat';
import type { ItemDetails } from '../common/api/items';
import { expect, test, uniqueName } from './fixtures';
import { ownedLettersWord } from './lootbox-helpers';
import {
  CharityServer,
  charityPage,
  freePort,
  launchCharityBrowser,
  shot,
  signIn,
  signUpThere,
} from './charity-helpers';

// One server for the spec: each project (desktop, phone) gets its own, with its own admin.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'green password 1';
const BAD_LINK_TEXT = 'Enter a link like example.org/donation, without spaces.';
const server = new CharityServer();
const admin = { username: uniqueName('adm'), password: PASSWORD };
let browser: Browser;
const errors: string[] = [];

test.beforeAll(async ({ browserName: _browserName }, info) => {
  test.setTimeout(240_000);
  await server.start();
  await server.register(admin.username, admin.password);
  await server.stop();
  await server.grantAdmin(admin.username);
  await server.start();
  browser = await launchCharityBrowser(info);
});

test.afterAll(async () => {
  await browser?.close();
  await server.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
  errors.length = 0;
});

/** The balance the page shows (the header's on a desktop, the bottom bar's on a phone). */
const balance = (page: Page) => page.getByTestId('balance').filter({ visible: true }).first();

const myLinks = (page: Page) =>
  page.evaluate(async () => (await (await fetch('/api/charity-link/my-links')).json()) as DonationLink[]);

test('a user sends a donation link, an admin approves it in the console, the balance rises live and the public sees it', async ({
  browserName: _browserName,
}, info) => {
  test.setTimeout(120_000);
  const project = info.project.name;
  const user = await charityPage(browser, info, server.url, errors);
  const username = uniqueName('giver');
  await signUpThere(user, username, PASSWORD);
  const badge = await user.evaluate(
    async () => ((await (await fetch('/api/user/profile')).json()) as { badge: string }).badge,
  );

  // Where the cash tenant adds money, the charity tenant opens the charity link popup, with the badge to quote.
  await user.goto('/');
  await expect(balance(user)).toHaveText(/^\$0(\.00)?$/);
  await balance(user).click();
  const popup = user.getByRole('dialog', { name: 'Charity link' });
  await expect(popup.getByTestId('badge-code')).toHaveText(badge);
  const input = popup.getByRole('textbox', { name: 'Donation link' });

  // A bad link: the error shows with the input locked, and both clear after 5 s.
  await input.fill('not a link');
  await popup.getByRole('button', { name: 'Send link' }).click();
  await expect(popup.getByRole('alert')).toHaveText(BAD_LINK_TEXT);
  await expect(input).not.toBeEditable();
  await user.screenshot({ path: shot(project, 'popup-error') });
  await expect(popup.getByRole('alert')).toHaveCount(0, { timeout: 7_000 });
  await expect(input).toBeEditable();

  const link = `www.redcross.org/donate/${uniqueName('r')}`;
  await input.fill(link);
  await popup.getByRole('button', { name: 'Send link' }).click();
  await expect(popup.getByRole('status')).toContainText('Your link was sent');
  await user.screenshot({ path: shot(project, 'popup-sent') });

  // The popup leads to the user's own list: Pending, the badge, the link as its hostname opening in a new tab.
  await popup.getByRole('link', { name: 'My donation links' }).click();
  await expect(user).toHaveURL(/\/my-donations$/);
  await expect(user.getByRole('heading', { name: 'Donation links', level: 1 })).toBeVisible();
  const card = user.getByTestId('donation');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Pending');
  await expect(card).toContainText(badge);
  const anchor = card.getByRole('link', { name: 'www.redcross.org' });
  await expect(anchor).toHaveAttribute('href', `https://${link}`);
  await expect(anchor).toHaveAttribute('target', '_blank');
  await expect(anchor).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(user.getByRole('button', { name: 'Pending' })).toBeVisible();
  await user.screenshot({ path: shot(project, 'my-donations-pending') });
  const [sent] = await myLinks(user);
  expect(sent!.link).toBe(link);

  // The admin: the console, its free fetch (made by the admin's own browser), and the approval.
  const console_ = await charityPage(browser, info, server.url, errors);
  await signIn(console_, admin.username, admin.password);
  await console_.goto('/admin-console');
  await expect(console_.getByRole('heading', { name: 'Admin Console', level: 1 })).toBeVisible();
  await console_.getByLabel('URL').fill('/api/health');
  await console_.getByRole('button', { name: 'Send' }).click();
  await expect(console_.getByLabel('Response')).toContainText('"ok":true');
  await expect(console_.getByText(/^Fetch completed at: /)).toBeVisible();
  await console_.screenshot({ path: shot(project, 'admin-free-fetch'), fullPage: true });
  // A URL nothing answers: the browser's own error. The page may connect there (its wider connect-src): a refusal by
  // the Content-Security-Policy would be a console error, which fails the test.
  await console_.getByLabel('URL').fill(`http://127.0.0.1:${await freePort()}/`);
  await console_.getByRole('button', { name: 'Send' }).click();
  await expect(console_.getByRole('alert')).toHaveText(/^Error: /);

  await console_.getByRole('tab', { name: 'Charity Form' }).click();
  const names = await console_.evaluate(
    async () => (await (await fetch('/api/admin/charityNames')).json()) as string[],
  );
  const categories = await console_.evaluate(
    async () => (await (await fetch('/api/admin/charity-categories')).json()) as string[],
  );
  expect(names.length).toBeGreaterThan(0);
  const form = console_.getByRole('form', { name: 'Charity Form' });
  await expect(form.getByLabel('Publicly Visible')).toBeChecked();
  // A card of the admin list hands its id to the form.
  await console_.getByRole('button', { name: `Use link ${sent!.id} in the form` }).click();
  await expect(form.getByLabel('Charity Link ID')).toHaveValue(String(sent!.id));
  await expect(form.getByLabel('Charity Link ID')).toBeFocused();
  const nameInput = form.getByLabel('Charity Name');
  await nameInput.fill('Someone unknown');
  await expect(nameInput).toHaveAttribute('data-known', 'false');
  await nameInput.fill(names[0]!);
  await expect(nameInput).toHaveAttribute('data-known', 'true');
  await expect(nameInput).toHaveCSS('background-color', 'rgb(220, 250, 230)');
  await form.getByLabel('Admin Category').fill(categories[0] ?? 'Health');
  await form.getByLabel('Amount').fill('12.34');
  await form.getByRole('button', { name: 'Approve' }).click();
  await expect(form.getByLabel('Response')).toHaveValue(/"approved":\s*true/);
  // The admin list: every card field an admin sees, newest first.
  const adminCard = console_.getByTestId('donation').filter({ hasText: link });
  await expect(adminCard).toContainText('Approved');
  await expect(adminCard).toContainText(username);
  await expect(adminCard).toContainText('Publicly Visible');
  await console_.screenshot({ path: shot(project, 'admin-charity-form'), fullPage: true });

  // A second decision is refused, and the answer shows as the server wrote it.
  await form.getByRole('button', { name: 'Reject' }).click();
  await expect(form.getByLabel('Response')).not.toHaveValue(/"approved":\s*true/);

  await console_.getByRole('tab', { name: 'Health' }).click();
  await expect(console_.getByText('The books balance: ok')).toBeVisible();
  await expect(console_.getByTestId('health-figure').first()).toContainText('ok');
  await console_.screenshot({ path: shot(project, 'admin-health'), fullPage: true });
  await console_.getByRole('tab', { name: 'Reports' }).click();
  await expect(console_.getByText('No reports.').or(console_.getByTestId('report').first())).toBeVisible();
  await console_.screenshot({ path: shot(project, 'admin-reports'), fullPage: true });

  // Live in the user's open page: the balance rises, the notification arrives and the card turns Approved.
  await expect(balance(user)).toHaveText('$12.34');
  await expect(user.getByTestId('notification-count').filter({ visible: true }).first()).toHaveText('1');
  await expect(user.getByTestId('donation')).toContainText('Approved');
  await expect(user.getByTestId('donation')).not.toContainText('Pending');

  // The public list, for a visitor: Approved, the charity, and nothing of who sent it.
  const visitor = await charityPage(browser, info, server.url, errors);
  await visitor.goto('/public-donations');
  await expect(visitor.getByRole('heading', { name: 'Donation links', level: 1 })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Approved' })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Rejected' })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Pending' })).toHaveCount(0);
  const publicCard = visitor.getByTestId('donation').filter({ hasText: 'www.redcross.org' });
  await expect(publicCard).toContainText('Approved');
  await expect(publicCard).toContainText(names[0]!);
  await expect(publicCard).not.toContainText(username);
  const publicList = await visitor.evaluate(
    async () => (await (await fetch('/api/charity-link/public')).json()) as DonationLink[],
  );
  expect(publicList.find((l) => l.id === sent!.id)?.sender).toBeNull();
  await visitor.screenshot({ path: shot(project, 'public-donations'), fullPage: true });

  // The MY/ALL toggle: the user goes from theirs to everyone's; a visitor's MY asks them to sign in.
  await user.getByRole('link', { name: 'ALL', exact: true }).click();
  await expect(user).toHaveURL(/\/public-donations$/);
  await expect(user.getByTestId('donation').filter({ hasText: 'www.redcross.org' })).toContainText('Approved');
  await user.getByRole('link', { name: 'MY', exact: true }).click();
  await expect(user).toHaveURL(/\/my-donations$/);
  await visitor.getByRole('link', { name: 'MY', exact: true }).click();
  await expect(visitor.getByRole('dialog', { name: 'Sign in' })).toBeVisible();

  // A signed-in non-admin is told the console is for administrators, with the way home.
  await user.goto('/admin-console');
  await expect(user.getByRole('heading', { name: 'Administrators only', level: 1 })).toBeVisible();
  await expect(user.getByText('This page is for administrators.')).toBeVisible();
  await expect(user.getByText('Please wait...')).toHaveCount(0);
  await expect(user.getByRole('heading', { name: 'Admin Console' })).toHaveCount(0);
  await user.screenshot({ path: shot(project, 'admin-not-admin') });

  await user.context().close();
  await console_.context().close();
  await visitor.context().close();
});

/** A JSON call made by the page's own browser (the charity host resolves only there): its status and body. */
const call = <T>(page: Page, path: string, data: unknown) =>
  page.evaluate(
    async ([p, d]) => {
      const res = await fetch(p, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(d),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    },
    [path, data] as const,
  ) as Promise<{ status: number; body: T }>;

test('a reported chat message shows in the console’s Reports tab with its reason, text and reporter', async ({
  browserName: _browserName,
}, info) => {
  test.setTimeout(120_000);
  // A writer with money (an approved donation link), letters (two lootboxes) and a message in the chat.
  const writer = await charityPage(browser, info, server.url, errors);
  await signUpThere(writer, uniqueName('writer'), PASSWORD);
  const link = await call<DonationLink>(writer, '/api/charity-link/send', {
    link: `www.unicef.org/give/${uniqueName('g')}`,
  });
  expect(link.status).toBe(200);
  const console_ = await charityPage(browser, info, server.url, errors);
  await signIn(console_, admin.username, admin.password);
  const approved = await call(console_, '/api/admin/charity/approve', {
    charityLinkId: link.body.id,
    charityName: 'UNICEF',
    adminCategory: 'Children',
    isPubliclyVisible: false,
    amount: 500,
  });
  expect(approved.status).toBe(200);
  expect((await call(writer, '/api/purchase/key', { keyCount: 2, balance: 500 })).status).toBe(200);
  for (let i = 0; i < 2; i++) {
    expect((await call(writer, '/api/purchase/lootbox', {})).status).toBe(200);
    expect((await call(writer, '/api/open/lootbox', {})).status).toBe(200);
  }
  const word = ownedLettersWord(
    await writer.evaluate(async () => (await (await fetch('/api/items/details')).json()) as ItemDetails[]),
  );
  expect(word.length).toBeGreaterThan(0);
  const sent = await call<MessageSent>(writer, '/api/user/message', { message: word, sendAmount: 300 });
  expect(sent.status).toBe(200);

  // The admin reports it, then finds it in the Reports tab.
  const report = await call(console_, '/api/user/report-message', {
    messageId: sent.body.message.id,
    reason: 'spam',
    description: 'The same letters again and again.',
    type: 'CHAT',
  });
  expect(report.status).toBe(200);
  await console_.goto('/admin-console');
  await console_.getByRole('tab', { name: 'Reports' }).click();
  const card = console_.getByTestId('report').filter({ hasText: 'The same letters again and again.' });
  await expect(card).toContainText('Chat message');
  await expect(card.getByText('Spam', { exact: true })).toBeVisible();
  await expect(card.locator('blockquote')).toHaveText(word);
  await expect(card).toContainText(`Reported by ${admin.username}`);
  await expect(card).toContainText(`on message ${sent.body.message.id}`);
  await console_.screenshot({ path: shot(info.project.name, 'admin-reports-one'), fullPage: true });

  await writer.context().close();
  await console_.context().close();
});

test('each link starts clean in the Charity Form, and every donation list follows the decisions live', async ({
  browserName: _browserName,
}, info) => {
  test.setTimeout(120_000);
  const user = await charityPage(browser, info, server.url, errors);
  await signUpThere(user, uniqueName('twice'), PASSWORD);
  const first = await call<DonationLink>(user, '/api/charity-link/send', {
    link: `www.redcross.org/${uniqueName('a')}`,
  });
  const second = await call<DonationLink>(user, '/api/charity-link/send', {
    link: `www.unicef.org/${uniqueName('b')}`,
  });
  expect([first.status, second.status]).toEqual([200, 200]);
  const [a, b] = [first.body.id, second.body.id];

  // Three screens open before any decision: the sender's list, the public list, the console.
  await user.goto('/my-donations');
  const card = (host: string) => user.getByTestId('donation').filter({ hasText: host });
  await expect(user.getByTestId('donation')).toHaveCount(2);
  await expect(user.getByTestId('donation').first()).toContainText('Pending');
  const visitor = await charityPage(browser, info, server.url, errors);
  await visitor.goto('/public-donations');
  await expect(visitor.getByRole('heading', { name: 'Donation links', level: 1 })).toBeVisible();
  const console_ = await charityPage(browser, info, server.url, errors);
  await signIn(console_, admin.username, admin.password);
  await console_.goto('/admin-console');
  await console_.getByRole('tab', { name: 'Charity Form' }).click();
  const form = console_.getByRole('form', { name: 'Charity Form' });
  const fields = {
    name: form.getByLabel('Charity Name'),
    category: form.getByLabel('Admin Category'),
    amount: form.getByLabel('Amount'),
    reason: form.getByLabel('Reason'),
    visible: form.getByLabel('Publicly Visible'),
  };
  const expectClean = async () => {
    for (const f of [fields.name, fields.category, fields.amount, fields.reason]) await expect(f).toHaveValue('');
    await expect(fields.visible).toBeChecked();
  };

  // Link 1 approved as Red Cross: the form empties once the server took the decision.
  await console_.getByRole('button', { name: `Use link ${a} in the form` }).click();
  await expectClean();
  await fields.name.fill('Red Cross');
  await fields.category.fill('Humanitarian aid');
  await fields.amount.fill('5');
  await form.getByRole('button', { name: 'Approve' }).click();
  await expect(form.getByLabel('Response')).toHaveValue(/"approved":\s*true/);
  await expectClean();

  // Something typed for one link, then another link picked from its card: the form starts clean for it.
  await fields.name.fill('Red Cross');
  await fields.visible.uncheck();
  await console_.getByRole('button', { name: `Use link ${b} in the form` }).click();
  await expect(form.getByLabel('Charity Link ID')).toHaveValue(String(b));
  await expectClean();
  await expect(form.getByLabel('Response')).toHaveValue('');
  await fields.name.fill('UNICEF');
  await fields.category.fill('Children');
  await fields.reason.fill('The donation could not be verified.');
  await form.getByRole('button', { name: 'Reject' }).click();
  await expect(form.getByLabel('Response')).toHaveValue(/"approved":\s*false/);
  await expectClean();
  const stored = await console_.evaluate(
    async () => (await (await fetch('/api/admin/all-links')).json()) as DonationLink[],
  );
  expect(stored.find((l) => l.id === b)).toMatchObject({ charityName: 'UNICEF', adminCategory: 'Children' });
  expect(stored.find((l) => l.id === a)).toMatchObject({ charityName: 'Red Cross' });

  // Live, without a reload: the sender's cards, the public list, and a new link in the console.
  await expect(card('www.redcross.org')).toContainText('Approved');
  await expect(card('www.unicef.org')).toContainText('Rejected');
  await expect(card('www.unicef.org')).toContainText('The donation could not be verified.');
  await expect(visitor.getByTestId('donation').filter({ hasText: 'UNICEF' })).toContainText('Rejected');
  await expect(visitor.getByTestId('donation').filter({ hasText: 'Red Cross' }).first()).toContainText('Approved');
  const third = await call<DonationLink>(user, '/api/charity-link/send', { link: `www.wwf.org/${uniqueName('c')}` });
  await expect(console_.getByRole('button', { name: `Use link ${third.body.id} in the form` })).toBeVisible();
  await console_.screenshot({ path: shot(info.project.name, 'admin-form-clean'), fullPage: true });

  await user.context().close();
  await visitor.context().close();
  await console_.context().close();
});
