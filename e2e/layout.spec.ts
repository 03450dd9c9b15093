import path from 'node:path';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { CHARITY_HOST, launchCharityBrowser, signUpThere } from './charity-helpers';
import { expect, test, uniqueName } from './fixtures';
import { seedLayoutData } from './layout-data';
import { layoutProblems, settle } from './layout-helpers';
import { NOT_A_PAGE, signedInRoutes, unnamedControls } from './routes';

/**
 * The layout family check (issue 22): every route of docs/product.md#routes, signed out and signed in with data, at every width,
 * and the popups a person opens. The phone project takes the phone widths (touch, a phone's viewport), the desktop
 * project the rest; each route is loaded once per state and the viewport is resized through the widths.
 */
const WIDTHS = { phone: [320, 360, 390, 414], desktop: [768, 1024, 1280, 1366, 1920] };
const HEIGHTS: Record<number, number> = { 768: 1024, 1024: 768, 1280: 800, 1366: 768, 1920: 1080 };
/** Screenshots of every screen at these widths, to be looked at (e2e-screenshots/<run>/). */
const SHOT_AT = new Set([360, 1366]);

const widthsOf = (info: TestInfo) => (info.project.name === 'phone' ? WIDTHS.phone : WIDTHS.desktop);
const heightOf = (width: number) => HEIGHTS[width] ?? 740;

const shotPath = (state: string, name: string, width: number) =>
  path.join(
    'e2e-screenshots',
    process.env.E2E_RUN_NAME!,
    `layout-${width}-${state}-${name.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '_') || 'top'}.png`,
  );

/** Waits for a screen to have its data: no 'Loading...' left, the pictures decoded. */
async function ready(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        !/Loading\.\.\.|Please wait/.test(document.body.innerText) &&
        [...document.images].every((img) => img.complete || img.loading === 'lazy'),
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => {});
}

class Findings {
  private readonly seen = new Map<string, number[]>();

  add(where: string, width: number, problems: string[]): void {
    for (const p of problems) {
      const key = `${where}: ${p}`;
      this.seen.set(key, [...(this.seen.get(key) ?? []), width]);
    }
  }

  /** One line per problem, with the widths it was seen at (0: a problem of the route at any width). */
  lines(): string[] {
    return [...this.seen].map(([key, widths]) =>
      key.replace(/: /, widths.includes(0) ? ': ' : ` @${widths.join(',')}px: `),
    );
  }
}

/** Measures the page as it is at every width of the project (after `open` puts it in the state to measure). */
async function measureAt(
  page: Page,
  info: TestInfo,
  findings: Findings,
  state: string,
  name: string,
  open?: () => Promise<void>,
  only: (width: number) => boolean = () => true,
): Promise<void> {
  for (const width of widthsOf(info).filter(only)) {
    await page.setViewportSize({ width, height: heightOf(width) });
    await settle(page);
    if (open) await open();
    findings.add(`${state} ${name}`, width, await layoutProblems(page));
    if (SHOT_AT.has(width)) await page.screenshot({ path: shotPath(state, name, width), fullPage: true });
  }
}

/**
 * Loads a route once and measures it at every width. Every screen also says what it is (a level-one heading: a
 * route the app does not know says 'Page not found') and names every control for a screen reader.
 */
async function visit(page: Page, info: TestInfo, findings: Findings, state: string, route: string): Promise<void> {
  const t0 = Date.now();
  await page.goto(route);
  await ready(page);
  const t1 = Date.now();
  // A route's page is a chunk of its own: on a loaded machine it may come after the shell looks ready.
  const h1 = page.getByRole('heading', { level: 1 });
  await h1
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  const heading = (await h1.allInnerTexts()).join(' | ');
  if (!heading) findings.add(`${state} ${route}`, 0, ['no level-one heading']);
  if ((heading === 'Page not found') !== (route === NOT_A_PAGE)) {
    findings.add(`${state} ${route}`, 0, [`heading '${heading}'`]);
  }
  findings.add(
    `${state} ${route}`,
    0,
    (await unnamedControls(page)).map((c) => `unnamed control ${c}`),
  );
  await measureAt(page, info, findings, state, route);
  if (process.env.LAYOUT_TIMING) console.log(`${state} ${route}: load ${t1 - t0} ms, measure ${Date.now() - t1} ms`);
}

const phoneContext = (browser: Browser, info: TestInfo, baseURL?: string) => {
  const phone = info.project.name === 'phone';
  return browser.newContext({
    baseURL,
    viewport: { width: widthsOf(info)[0]!, height: heightOf(widthsOf(info)[0]!) },
    hasTouch: phone,
    isMobile: phone,
  });
};

test('every route at every width: no control on another, no clipped text, no sideways scroll, no small target', async ({
  page,
  browser,
  baseURL,
}, info) => {
  // Every route at every width in one test: minutes on a busy CI machine, where the browser shares two cores with
  // the other jobs (docs/decisions.md, "CI as a job queue (issue 25)").
  test.setTimeout(900_000);
  page.setDefaultTimeout(10_000);
  const findings = new Findings();
  try {
    await everyScreen(page, browser, baseURL!, info, findings);
  } finally {
    // Should a step fail, what was measured until then is still told.
    if (findings.lines().length > 0) console.log(findings.lines().join('\n'));
  }
  expect(findings.lines(), 'layout problems (state route @widths: problem)').toEqual([]);
});

async function everyScreen(page: Page, browser: Browser, baseURL: string, info: TestInfo, findings: Findings) {
  const data = await seedLayoutData(page, browser, info);

  // Signed out: the public screens, and a protected one, which sends the visitor home with the sign-in popup.
  const visitorContext = await phoneContext(browser, info, baseURL);
  const visitor = await visitorContext.newPage();
  for (const route of [
    '/',
    '/trending',
    `/image/top/${data.pictureId}`,
    `/image/detail/${data.pictureId}`,
    `/profile/${data.me}`,
    '/verify-email?userId=1&secret=wrong',
    '/goodwill/proof',
    '/close-the-window',
    '/admin-console',
    '/moderation-log',
    NOT_A_PAGE,
  ]) {
    await visit(visitor, info, findings, 'signed-out', route);
  }
  await visitor.goto('/upload');
  await expect(visitor.getByRole('dialog')).toBeVisible();
  await measureAt(visitor, info, findings, 'signed-out', 'sign-in popup');
  await visitorContext.close();

  // Signed in, with data.
  const item = data.itemType;
  const routes = signedInRoutes({
    pictureId: data.pictureId,
    userId: data.me,
    items: { graph: item, myItems: item, store: item },
  });
  for (const route of routes) await visit(page, info, findings, 'signed-in', route);

  // The popups and panels a person opens.
  await page.goto('/');
  await ready(page);
  await measureAt(page, info, findings, 'signed-in', 'add money', async () => {
    if ((await page.getByRole('dialog', { name: 'Add money' }).count()) === 0) {
      await page.getByTestId('balance').locator('visible=true').first().click();
      await expect(page.getByRole('dialog', { name: 'Add money' })).toBeVisible();
    }
  });
  await page.keyboard.press('Escape');
  await measureAt(page, info, findings, 'signed-in', 'account menu', async () => {
    if ((await page.getByRole('menu', { name: 'Account' }).count()) === 0) {
      await page.getByRole('button', { name: 'Account menu' }).click();
    }
  });
  await page.keyboard.press('Escape');
  // The floating bubbles are the desktop layout's (from 1230 px).
  const desktop = (width: number) => width >= 1230;
  for (const bubble of [
    { dialog: 'Notifications', button: 'Open notifications', item: 'notification' },
    { dialog: 'Chat', button: 'Open chat', item: 'chat-message' },
  ]) {
    await page.goto('/');
    const open = async () => {
      if ((await page.getByRole('dialog', { name: bubble.dialog }).count()) === 0) {
        await page.getByRole('button', { name: bubble.button }).click();
      }
      await expect(page.getByRole('dialog', { name: bubble.dialog }).getByTestId(bubble.item).first()).toBeVisible();
    };
    await measureAt(page, info, findings, 'signed-in', `${bubble.dialog.toLowerCase()} bubble`, open, desktop);
  }
  if (info.project.name === 'phone') {
    await page.goto('/');
    await page.getByRole('button', { name: 'More menu' }).click();
    await measureAt(page, info, findings, 'signed-in', 'bottom bar opened');
    await page.getByRole('button', { name: 'Less menu' }).click();
  }
  await page.goto(`/image/detail/${data.pictureId}`);
  await ready(page);
  const comment = page.getByTestId('comment').filter({ hasText: data.commentText }).first();
  await comment.getByRole('button', { name: 'React', exact: true }).first().click();
  await measureAt(page, info, findings, 'signed-in', 'reaction form');
  const reactions = comment.getByRole('button', { name: /reactions: show who reacted/ });
  if ((await reactions.count()) > 0) {
    await reactions.click();
    await measureAt(page, info, findings, 'signed-in', 'reactions list');
  }
  await comment.getByRole('button', { name: 'Report', exact: true }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await measureAt(page, info, findings, 'signed-in', 'report popup');
  await page.keyboard.press('Escape');
  await page.goto(`/items-detail/${data.itemType}/item-store`);
  await page.getByRole('button', { name: 'Sell offers' }).click();
  await expect(page.getByRole('dialog', { name: 'Sell offers' })).toBeVisible();
  await measureAt(page, info, findings, 'signed-in', 'sell offers popup');
  await page.keyboard.press('Escape');
  await data.close();

  // The donation routes live on a charity host.
  const charityBrowser = await launchCharityBrowser(info);
  const port = new URL(baseURL).port;
  const charityContext = await phoneContext(charityBrowser, info, `http://${CHARITY_HOST}:${port}`);
  const donor = await charityContext.newPage();
  await signUpThere(donor, uniqueName('donor'), 'correct horse battery 9');
  const sent = await donor.evaluate(
    async (link) => {
      const res = await fetch('/api/charity-link/send', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `layout-${Date.now()}-${Math.random()}` },
        body: JSON.stringify({ link }),
      });
      return res.status;
    },
    `https://www.example.org/donations/${uniqueName('receipt')}`,
  );
  expect(sent).toBe(200);
  for (const route of ['/', '/my-donations', '/public-donations']) await visit(donor, info, findings, 'charity', route);
  await charityBrowser.close();
}
