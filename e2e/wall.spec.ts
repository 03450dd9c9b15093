import type { Page } from '@playwright/test';
import { expect, isPhone, signUp, test } from './fixtures';
import { myId, shot, topUp, uploadPicture } from './pictures-helpers';

const cards = (page: Page) => page.getByTestId('picture-card');
/** A horizontal finger swipe on `selector` from x = `from` to x = `to`. */
const swipe = (page: Page, selector: string, from: number, to: number) =>
  page.evaluate(
    ([sel, a, b]) => {
      const el = document.querySelector(sel as string)!;
      const t = (x: number) => new Touch({ identifier: 1, target: el, clientX: x, clientY: 300 });
      el.dispatchEvent(
        new TouchEvent('touchstart', { touches: [t(a as number)], changedTouches: [t(a as number)], bubbles: true }),
      );
      el.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [t(b as number)], bubbles: true }));
    },
    [selector, from, to] as const,
  );
/** Screenshots wait for the first picture to be painted. */
const firstImageShown = (page: Page) =>
  expect
    .poll(() =>
      page
        .locator('main img[src^="/images/"]')
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);

test('the top wall loads 3 pictures, then 2 at a time, with trophies for the first three and medals after', async ({
  page,
}, info) => {
  await signUp(page);
  await topUp(page, 2_500);
  for (let i = 0; i < 6; i++) await uploadPicture(page, 100 * (1 + i));
  // Batches asked for, as "offset:limit". A refetch (say, after the live socket connects) asks again from the top.
  const batches: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/pictures')
      batches.push(`${url.searchParams.get('offset')}:${url.searchParams.get('limit')}`);
  });

  await page.goto('/');
  await expect(cards(page).first()).toBeVisible();
  expect(batches[0]).toBe('0:3');
  await expect(cards(page).nth(0).getByRole('img', { name: 'Place 1, trophy' })).toBeVisible();
  await expect(cards(page).nth(2).getByRole('img', { name: 'Place 3, trophy' })).toBeVisible();
  await firstImageShown(page);
  await page.screenshot({ path: shot(info.project.name, 'wall-top') });

  // A card's arrows scroll to its neighbour; on a touch screen they show without hovering.
  const next = cards(page).nth(0).getByRole('button', { name: 'Next picture' });
  if (isPhone(page)) await expect(next).toHaveCSS('opacity', '1');
  await next.click();
  await expect(cards(page).nth(1)).toBeInViewport({ ratio: 0.5 });

  // Later batches take a moment, so the 'Loading...' at the bottom can be seen.
  await page.route('**/api/pictures?*', async (route) => {
    if (new URL(route.request().url()).searchParams.get('limit') === '2') await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  await expect(page.locator('.wall__edge').last()).toHaveText('Loading...');
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, 3000);
      return cards(page).nth(3).getByRole('img', { name: 'Place 4' }).count();
    })
    .toBe(1);
  // Each further scroll to the bottom brings 2 more; only the first batch, from the top, is of 3.
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, 3000);
      return batches.filter((b) => !b.startsWith('0:')).length;
    })
    .toBeGreaterThanOrEqual(2);
  expect(batches.filter((b) => b.startsWith('0:'))).toEqual(batches.filter((b) => b === '0:3'));
  expect(batches.filter((b) => !b.startsWith('0:')).every((b) => b.endsWith(':2'))).toBe(true);
});

test('the trending wall shows fire badges whose score is recomputed every second', async ({ page }, info) => {
  await signUp(page);
  await topUp(page, 500);
  await uploadPicture(page, 100);
  await page.goto('/trending');
  const score = cards(page).first().getByTestId('trending-score');
  await expect(score).toBeVisible();
  const before = await score.getAttribute('aria-label');
  await expect.poll(() => score.getAttribute('aria-label'), { timeout: 5_000 }).not.toBe(before);
  await firstImageShown(page);
  await page.screenshot({ path: shot(info.project.name, 'wall-trending') });
});

test('the index parameter starts the wall at that place and loads the pictures above it', async ({ page }) => {
  await signUp(page);
  await topUp(page, 1_000);
  for (let i = 0; i < 5; i++) await uploadPicture(page, 100);
  await page.goto('/?index=4');
  const start = page.locator('[data-testid="picture-card"][data-index="4"]');
  await expect(start).toBeVisible();
  // The batch above loads at once, without pushing the starting picture away.
  await expect(page.locator('[data-testid="picture-card"][data-index="2"]')).toBeAttached();
  await expect(start).toBeInViewport();
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -1500);
  await expect(page.locator('[data-testid="picture-card"][data-index="0"]')).toBeAttached();

  // img= names the starting picture instead.
  const fifth = await page.locator('[data-testid="picture-card"][data-index="4"]').getAttribute('data-picture-id');
  await page.goto(`/?img=${fifth}`);
  await expect(page.locator('[data-testid="picture-card"]').first()).toBeAttached();
  await expect(page.locator(`[data-picture-id="${fifth}"]`)).toHaveAttribute('data-index', '4');
  await expect(page.locator(`[data-picture-id="${fifth}"]`)).toBeInViewport();

  await page.goto('/?index=99999');
  await expect(page.locator('[data-testid="picture-card"][data-index="0"]')).toBeVisible();
  await page.goto('/?index=-2');
  await expect(page.locator('[data-testid="picture-card"][data-index="0"]')).toBeVisible();
});

test('swiping left on TOP opens TRENDING and right goes back, but not while a popup is open', async ({ page }) => {
  test.skip(!isPhone(page), 'a touch screen gesture');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Top wall' })).toBeAttached();
  await swipe(page, '.wall-page', 300, 60);
  await expect(page).toHaveURL(/\/trending$/);
  await swipe(page, '.wall-page', 60, 300);
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: 'SIGN IN' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await swipe(page, '.wall-page', 300, 60);
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/$/);
});

test('the price tag: sign-in when logged out; whole dollars, a shortfall opens top-up, and funding moves the fund', async ({
  page,
}, info) => {
  await page.goto('/');
  await page.evaluate(() => localStorage.removeItem('isLoggedIn'));
  const owner = await page.context().browser()!.newContext();
  const ownerPage = await owner.newPage();
  await signUp(ownerPage);
  await topUp(ownerPage, 500);
  const id = await uploadPicture(ownerPage, 100);
  await owner.close();

  await page.goto(`/image/detail/${id}`);
  await page.getByTestId('price-tag').click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();

  await signUp(page);
  await topUp(page, 500);
  await page.goto(`/image/detail/${id}`);
  const tag = page.getByTestId('price-tag');
  await expect(tag).toHaveText(/\$1/);
  // 15·ln(100 cents) is 69 px: the tag is at least that wide.
  expect((await tag.boundingBox())!.width).toBeGreaterThanOrEqual(68);
  await tag.click();
  const input = page.getByRole('textbox', { name: /Dollars to add/ });
  await input.pressSequentially('-1e2+.5');
  await expect(input).toHaveValue('125');
  await input.fill('12345678');
  await expect(input).toHaveValue('123456');
  await input.fill('9');
  await page.getByRole('button', { name: 'Send $9' }).click();
  const topUpDialog = page.getByRole('dialog', { name: 'Top up' });
  await expect(topUpDialog).toContainText('You need $4 more');
  await page.screenshot({ path: shot(info.project.name, 'price-tag-shortfall') });
  await page.keyboard.press('Escape');
  await expect(topUpDialog).toBeHidden();

  await tag.click();
  const keys: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/payment/checkout-with-image-fund')) keys.push(r.headers()['idempotency-key'] ?? '');
  });
  await page.getByRole('textbox', { name: /Dollars to add/ }).fill('3');
  await page.screenshot({ path: shot(info.project.name, 'price-tag-open') });
  await page.getByRole('button', { name: 'Send $3' }).click();
  await expect(page.getByTestId('price-tag')).toHaveText(/\$4/);
  await expect(page.getByTestId('balance').first()).toHaveText('$2');
  expect(keys).toHaveLength(1);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
});

test('image detail: arrows move through the list replacing history; only the owner sees share picture', async ({
  page,
}, info) => {
  await signUp(page);
  await topUp(page, 1_000);
  const first = await uploadPicture(page, 300);
  const second = await uploadPicture(page, 200);
  // On the author's list the newest upload comes first.
  await page.goto(`/image/profile/${second}`);
  await expect(page.getByRole('img', { name: `Picture by` }).first()).toBeVisible();
  await expect(page.getByTestId('comments-pane')).toBeVisible();
  await expect(page.getByRole('link', { name: 'share picture' })).toHaveAttribute('href', `/image/share/${second}`);
  await firstImageShown(page);
  await page.screenshot({ path: shot(info.project.name, 'image-detail') });

  const length = await page.evaluate(() => history.length);
  await page.getByRole('button', { name: 'Next picture' }).click();
  await expect(page).toHaveURL(new RegExp(`/image/profile/${first}\\?index=1$`));
  expect(await page.evaluate(() => history.length)).toBe(length);
  await page.getByRole('button', { name: 'Previous picture' }).click();
  await expect(page).toHaveURL(new RegExp(`/image/profile/${second}\\?index=0$`));
  if (isPhone(page)) {
    await swipe(page, '.detail__media', 300, 60);
    await expect(page).toHaveURL(new RegExp(`/image/profile/${first}\\?index=1$`));
  }

  await page.goto(`/image/detail/${second}`);
  await expect(page.getByRole('img', { name: 'Picture by' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next picture' })).toHaveCount(0);

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.removeItem('isLoggedIn'));
  await page.goto(`/image/top/${first}`);
  await expect(page.getByTestId('comments-pane')).toBeVisible();
  await expect(page.getByRole('link', { name: 'share picture' })).toHaveCount(0);
  // The author's name opens their profile.
  await page.getByRole('link', { name: /'s profile$/ }).click();
  await expect(page).toHaveURL(/\/profile\/\d+$/);
  await page.goto('/image/detail/987654321');
  await expect(page.getByRole('heading', { name: 'Image not found' })).toBeVisible();
});

test('profile and set profile picture: empty texts, own pictures, and choosing a face', async ({
  page,
  browser,
}, info) => {
  const user = await signUp(page);
  const me = await myId(page);
  await page.goto(`/profile/${me}`);
  await expect(page.getByRole('heading', { name: user.username })).toBeVisible();
  await expect(page.getByText('No pictures to see.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upload some.' })).toHaveAttribute('href', '/upload');
  await page.screenshot({ path: shot(info.project.name, 'profile-empty') });

  const visitor = await browser.newContext({ viewport: page.viewportSize()! });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/profile/${me}`);
  await expect(visitorPage.getByText('No pictures to see.')).toBeVisible();
  await expect(visitorPage.getByRole('link', { name: 'Upload some.' })).toHaveCount(0);
  await visitor.close();

  await page.goto('/profile/edit');
  await expect(page.getByText('You have no pictures to set as profile')).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'set-profile-empty') });

  await topUp(page, 1_000);
  const a = await uploadPicture(page, 200, [300, 300]);
  await uploadPicture(page, 100, [600, 400]);
  await page.goto(`/profile/${me}`);
  await expect(cards(page)).toHaveCount(2);
  // Sorted by the author's last payment: the newest upload first.
  await expect(cards(page).last()).toHaveAttribute('data-picture-id', String(a));
  await firstImageShown(page);
  await page.screenshot({ path: shot(info.project.name, 'profile') });

  await page.goto('/profile/edit');
  const choices = page.getByRole('button', { name: /as profile picture/ });
  await expect(choices).toHaveCount(2);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/user/profile?imageId=')),
    choices.last().click(),
  ]);
  await expect(page.getByRole('status')).toHaveText('Profile picture set.');
  await page.screenshot({ path: shot(info.project.name, 'set-profile') });
  const picture = (await (await page.request.get(`/api/pictures/${a}`)).json()) as { url: string };
  expect(((await answer.json()) as { profileImageUrl: string }).profileImageUrl).toBe(picture.url);
});

test('share page: overlays with their default transparency, bring to front, deselect, and export', async ({
  page,
}, info) => {
  await signUp(page);
  await topUp(page, 500);
  const id = await uploadPicture(page, 300, [400, 500]);
  await page.goto(`/image/share/${id}`);
  for (const [name, value] of [
    ['Logo', '0.5'],
    ['Price tag', '0.9'],
    ['Fire', '0.75'],
    ['Trophy', '0.9'],
  ]) {
    await expect(page.getByRole('slider', { name: `${name} transparency` })).toHaveValue(value!);
  }
  const fire = page.getByRole('button', { name: 'Select the fire overlay' });
  await fire.click();
  await expect(fire).toHaveAttribute('aria-pressed', 'true');
  const zOf = (name: string) =>
    page.locator(`[data-overlay="${name}"]`).evaluate((el) => Number(getComputedStyle(el).zIndex));
  expect(await zOf('fire')).toBeGreaterThan(Math.max(await zOf('logo'), await zOf('trophy'), await zOf('pricetag')));
  await page.getByTestId('share-stage').click({ position: { x: 150, y: 150 } });
  await expect(page.locator('.share__overlay[aria-pressed="true"]')).toHaveCount(0);
  await page.getByRole('slider', { name: 'Logo transparency' }).fill('0.3');
  await expect(page.locator('[data-overlay="logo"]')).toHaveCSS('opacity', '0.3');
  await firstImageShown(page);
  await page.screenshot({ path: shot(info.project.name, 'share') });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Share image' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`picture-${id}.png`);
  const { default: sharp } = await import('sharp');
  const meta = await sharp(await download.path()).metadata();
  expect([meta.width, meta.height]).toEqual([1080, 1350]);

  await page.goto('/image/share/987654321');
  await expect(page.getByRole('heading', { name: 'Image not found' })).toBeVisible();
});

test('a card funded low on the wall climbs to the top and stays on the screen, where the user acted', async ({
  page,
}, info) => {
  // The author's own wall (ranked by the author's last payment), so the shared top and trending walls keep their
  // order for the other tests: five pictures, the first upload last.
  await signUp(page);
  await topUp(page, 1_000);
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push(await uploadPicture(page, 100, [300, 300]));
  const low = ids[0]!;

  await page.goto(`/profile/${await myId(page)}`);
  const card = page.locator(`[data-testid="picture-card"][data-picture-id="${low}"]`);
  await expect(async () => {
    await page.mouse.wheel(0, 600);
    await expect(card).toBeAttached({ timeout: 500 });
  }).toPass();
  await card.scrollIntoViewIfNeeded();
  await expect(card).toHaveAttribute('data-index', '4');
  await expect(card).toBeInViewport();

  // The author pays $1 more: the picture goes first on the wall, and the card is still on the screen.
  await card.getByTestId('price-tag').click();
  await card.getByRole('textbox', { name: /Dollars to add/ }).fill('1');
  await card.getByRole('button', { name: 'Send $1' }).click();
  await expect(card).toHaveAttribute('data-index', '0');
  await expect(card.getByTestId('price-tag')).toHaveText(/\$2/);
  await expect(card).toBeInViewport({ ratio: 0.5 });
  await page.screenshot({ path: shot(info.project.name, 'wall-funded-card-kept') });
});
