import type { Browser, Page, TestInfo } from '@playwright/test';
import type { CommentAnswer } from '../common/api/comments';
import type { ReportAnswer } from '../common/api/reports';
import { CharityServer, charityPage, launchCharityBrowser, signIn, signUpThere } from './charity-helpers';
import { expect, test, uniqueName } from './fixtures';
import { openBoxes } from './lootbox-helpers';
import { shot as pictureShot, topUp, uploadPicture } from './pictures-helpers';
import { chat, ok, ownedWord } from './screens-helpers';

/*
 * Moderation in the browser (docs/product.md#moderation-screens): an admin decides a report in the console, the
 * content leaves a second browser live, its author reads the reasons and appeals, another admin reverses it, the
 * reporter is told, the public log lists it without names; a blocked user's chat message never reaches the blocker;
 * a blocked word is refused before anything is charged. At desktop and phone width (the projects).
 *
 * Two administrators are needed (an appeal goes to an admin other than the one who decided), and granting one takes
 * the admin command against a stopped server's database: so the spec runs a server of its own, as the charity spec
 * does, on a cash host (localhost is among its CASH_HOSTS).
 */

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'moderation password 1';
const server = new CharityServer();
const deciding = { username: uniqueName('adm'), password: PASSWORD };
const reviewing = { username: uniqueName('adr'), password: PASSWORD };
let browser: Browser;
const errors: string[] = [];

test.beforeAll(async ({ browserName: _browserName }, info) => {
  test.setTimeout(240_000);
  await server.start();
  await server.register(deciding.username, deciding.password);
  await server.register(reviewing.username, reviewing.password);
  await server.stop();
  await server.grantAdmin(deciding.username);
  await server.grantAdmin(reviewing.username);
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

/** The cash host of the spec's server. */
const cashUrl = () => `http://localhost:${server.port}`;

/** A page of its own (a browser context of its own) at the project's width. */
const newPage = (info: TestInfo) => charityPage(browser, info, cashUrl(), errors);

async function newUser(info: TestInfo, prefix: string): Promise<{ page: Page; username: string }> {
  const page = await newPage(info);
  const username = uniqueName(prefix);
  await signUpThere(page, username, PASSWORD);
  return { page, username };
}

async function admin(info: TestInfo, who: { username: string; password: string }): Promise<Page> {
  const page = await newPage(info);
  await signIn(page, who.username, who.password);
  await page.goto('/admin-console');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Console' })).toBeVisible();
  return page;
}

const shot = (info: TestInfo, name: string) => pictureShot(info.project.name, `moderation-${name}`);

/** The signed-in user's balance and held money, in cents (what a refused call must leave as it was). */
const money = async (page: Page) => (await (await page.request.get('/api/user/profile')).json()) as { balance: number };

test('an admin removes a reported comment with reasons: it leaves a second browser live, the author appeals, another admin reverses it, the reporter is told, the log has no names', async ({
  browserName: _browserName,
}, info) => {
  test.setTimeout(180_000);

  // The author's picture and comment: on their own picture the author writes with every letter.
  const author = await newUser(info, 'auth');
  await topUp(author.page, 500);
  const pictureId = await uploadPicture(author.page, 100);
  const text = `Cheap pills here ${uniqueName('x')}`;
  const comment = await ok<CommentAnswer>(author.page.request, '/api/picture/comment', {
    pictureId,
    comment: text,
    balance: 0,
  });

  // The reporter reports it, and keeps the picture open in their browser.
  const reporter = await newUser(info, 'rep');
  const report = await ok<ReportAnswer>(reporter.page.request, '/api/user/report-message', {
    messageId: comment.id,
    type: 'COMMENT',
    reason: 'spam',
    description: 'Selling pills',
  });
  expect(report.id).toBeGreaterThan(0);
  await reporter.page.goto(`/image/detail/${pictureId}`);
  const shown = reporter.page.getByTestId('comment').filter({ hasText: text });
  await expect(shown).toBeVisible();

  // The deciding admin opens the report and sends a removal; the form first asks for what is missing.
  const console_ = await admin(info, deciding);
  await console_.getByRole('tab', { name: 'Reports' }).click();
  const row = console_.getByTestId('report').filter({ hasText: text });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Decide' }).click();
  await row.getByRole('button', { name: 'Send decision' }).click();
  await expect(row.getByText('Choose dismiss or remove.')).toBeVisible();
  await expect(row.getByText('Write the statement of reasons.')).toBeVisible();
  await row.getByRole('radio', { name: 'Remove' }).check();
  await expect(row.getByLabel('Refund the spend')).toBeVisible();
  await row.getByLabel('Category').selectOption('spam');
  const reasons = `Advertising for pills is spam here ${uniqueName('r')}`;
  await row.getByLabel('Statement of reasons').fill(reasons);
  await console_.screenshot({ path: shot(info, 'decide-form') });
  await row.getByRole('button', { name: 'Send decision' }).click();
  await expect(row.getByTestId('report-decided')).toContainText('Decided: removed');

  // Gone from the reporter's screen without a reload, within 2 s of the decision.
  await expect(shown).toHaveCount(0, { timeout: 2_000 });
  await reporter.page.screenshot({ path: shot(info, 'comment-removed') });

  // The author reads the decision with its reasons at /moderation (the account menu or the phone's tiles lead there).
  await author.page.goto('/moderation');
  const decision = author.page.getByTestId('decision').first();
  await expect(decision).toContainText(reasons);
  await expect(decision).toContainText('Removed');
  await expect(decision).toContainText('Spam');
  await expect(decision).toContainText('Comment');
  // An appeal needs a text.
  await decision.getByRole('button', { name: 'Appeal' }).click();
  await expect(decision.getByText('Write why the decision should change.')).toBeVisible();
  const appealText = `It was a joke between friends ${uniqueName('a')}`;
  await decision.getByLabel(/^Appeal \(until/).fill(appealText);
  await author.page.screenshot({ path: shot(info, 'appeal-form') });
  await decision.getByRole('button', { name: 'Appeal' }).click();
  // The form's thanks, then the decision read again with its appeal pending.
  await expect(decision.getByText('Appeal pending')).toBeVisible();

  // Another admin reverses it: the comment comes back on the reporter's screen.
  const review = await admin(info, reviewing);
  await review.getByRole('tab', { name: 'Appeals' }).click();
  const appeal = review.getByTestId('appeal').filter({ hasText: appealText });
  await expect(appeal).toBeVisible();
  await expect(appeal).toContainText(reasons);
  await appeal.getByRole('radio', { name: 'Reverse' }).check();
  await appeal.getByLabel('Reasons').fill('A joke, not an advertisement.');
  await review.screenshot({ path: shot(info, 'appeal-decide') });
  await appeal.getByRole('button', { name: 'Send' }).click();
  await expect(appeal).toHaveCount(0);
  await expect(shown).toBeVisible({ timeout: 5_000 });

  await author.page.reload();
  await expect(author.page.getByTestId('appeal-status').first()).toContainText('Appeal reversed');

  // The reporter was told the outcome.
  await reporter.page.goto('/notifications');
  await expect(reporter.page.getByTestId('notification').first()).toBeVisible();
  await reporter.page.screenshot({ path: shot(info, 'reporter-notified') });

  // The public log lists the decision and its appeal, with no names and no content.
  const visitor = await newPage(info);
  await visitor.goto('/moderation-log');
  const entry = visitor.getByTestId('log-entry').first();
  await expect(entry).toContainText('Comment');
  await expect(entry).toContainText('Spam');
  await expect(entry).toContainText('Removed');
  await expect(entry).toContainText('Appeal reversed');
  const page = (await visitor.locator('body').innerText()).toLowerCase();
  for (const secret of [author.username, reporter.username, deciding.username, reviewing.username, text, reasons])
    expect(page).not.toContain(secret.toLowerCase());
  await visitor.screenshot({ path: shot(info, 'public-log') });

  for (const p of [author.page, reporter.page, console_, review, visitor]) await p.context().close();
});

test("a blocked user's chat message does not reach the blocker", async ({ browserName: _browserName }, info) => {
  test.setTimeout(180_000);
  const sender = await newUser(info, 'snd');
  await openBoxes(sender.page, 3);
  await topUp(sender.page, 1_000);
  const word = await ownedWord(sender.page);

  const blocker = await newUser(info, 'blk');
  await blocker.page.goto('/chat');
  await sender.page.goto('/chat');

  // The first message reaches both; the blocker blocks its sender from the message.
  await chat(sender.page, word);
  const first = blocker.page.getByTestId('chat-message').filter({ hasText: sender.username });
  await expect(first.first()).toBeVisible();
  await first
    .first()
    .getByRole('button', { name: `Block ${sender.username}` })
    .click();
  const dialog = blocker.page.getByRole('dialog', { name: `Block ${sender.username}?` });
  await expect(dialog).toBeVisible();
  await blocker.page.screenshot({ path: shot(info, 'block-confirm') });
  await dialog.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(dialog.getByText(`${sender.username} is blocked.`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(first).toHaveCount(0);

  // The next message reaches the sender's own screen, never the blocker's: live, nor after a reload.
  const second = `${word}${word}`;
  await chat(sender.page, second);
  await expect(sender.page.getByTestId('chat-message').filter({ hasText: second })).toBeVisible();
  await blocker.page.waitForTimeout(1_500);
  await expect(blocker.page.getByTestId('chat-message').filter({ hasText: sender.username })).toHaveCount(0);
  await blocker.page.reload();
  await expect(blocker.page.getByRole('heading', { name: 'General' })).toBeVisible();
  await expect(blocker.page.getByTestId('chat-message').filter({ hasText: sender.username })).toHaveCount(0);

  // The blocked list has them, and unblocking takes them off it.
  await blocker.page.goto('/blocked');
  const listed = blocker.page.getByTestId('blocked-user').filter({ hasText: sender.username });
  await expect(listed).toBeVisible();
  await blocker.page.screenshot({ path: shot(info, 'blocked-list') });
  await listed.getByRole('button', { name: 'Unblock' }).click();
  await expect(blocker.page.getByText('You have not blocked anyone.')).toBeVisible();

  for (const p of [sender.page, blocker.page]) await p.context().close();
});

test('a blocked word is refused before anything is charged', async ({ browserName: _browserName }, info) => {
  test.setTimeout(120_000);
  const blocked = `zorb${uniqueName('w').replace(/[^a-z]/g, '')}`;

  // The admin adds the word in the console's Blocked words tab.
  const console_ = await admin(info, deciding);
  await console_.getByRole('tab', { name: 'Blocked words' }).click();
  const words = console_.getByLabel('Blocked words, one per line');
  await expect(words).toBeVisible();
  const before = await words.inputValue();
  await words.fill(`${before}\n${blocked}`.trim());
  await console_.getByRole('button', { name: 'Save' }).click();
  await expect(console_.getByText('Saved.')).toBeVisible();
  await console_.screenshot({ path: shot(info, 'blocked-words') });

  // The author writes it in a comment on their own picture: refused with the server's words, nothing charged.
  const author = await newUser(info, 'wrd');
  await topUp(author.page, 500);
  const pictureId = await uploadPicture(author.page, 100);
  const { balance } = await money(author.page);
  await author.page.goto(`/image/detail/${pictureId}`);
  const pane = author.page.getByTestId('comments-pane');
  const input = pane.getByLabel('Write a comment');
  await input.pressSequentially(`Hello ${blocked.toUpperCase()} friends`);
  await input.press('Enter');
  await expect(pane.getByRole('alert')).toBeVisible();
  await expect(pane.getByTestId('comment')).toHaveCount(0);
  await author.page.screenshot({ path: shot(info, 'blocked-word-refused') });
  expect((await money(author.page)).balance).toBe(balance);

  // The same through the API answers 400 with field errors, and moves no money.
  const res = await author.page.request.post('/api/picture/comment', {
    data: { pictureId, comment: `${blocked} again`, balance: 0 },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(res.status()).toBe(400);
  expect(Array.isArray(await res.json())).toBe(true);
  expect((await money(author.page)).balance).toBe(balance);

  for (const p of [console_, author.page]) await p.context().close();
});
