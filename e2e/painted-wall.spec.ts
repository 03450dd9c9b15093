import type { Page } from '@playwright/test';
import { expect, signUp, test } from './fixtures';
import { makeImage, shot, topTotal, topUp } from './pictures-helpers';

// The wall painted by the server (docs/decisions.md "Issue 28: the wall painted by the server"): a visitor's `/`
// arrives with the shell and the first card in the page, and the app's scripts come once that picture is on screen.

/** A title no page may run or mangle: the painted card must show it as text. */
const TITLE = `<script>window.__ran = 1</script> "Fête" & <b>co</b>`;

/** What to compare of a subtree: tags, attributes sorted (style as the browser reads it), text; a few left out. */
function canonical(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    const walk = (n: Node): string => {
      if (n.nodeType === Node.TEXT_NODE) return n.textContent ?? '';
      if (!(n instanceof Element)) return '';
      const attrs = [...n.attributes]
        // The face arrives later from the image cache; the placeholder's blur is drawn only until the picture is in.
        .filter((a) => !(n.matches('img.avatar, picture img') && (a.name === 'src' || a.name === 'style')))
        .map((a) => `${a.name}=${a.name === 'style' ? (n as HTMLElement).style.cssText : a.value}`)
        .sort();
      return `<${n.tagName.toLowerCase()} ${attrs.join(' ')}>${[...n.childNodes].map(walk).join('')}</>`;
    };
    const el = document.querySelector(sel);
    return el ? walk(el) : `(no ${sel})`;
  }, selector);
}

/** Where the parts of the screen are, in the page's coordinates. */
function boxes(page: Page): Promise<Record<string, number[] | null>> {
  return page.evaluate(() => {
    const out: Record<string, number[] | null> = {};
    for (const sel of [
      '.header',
      '.side-panel',
      '.right-panel',
      '.bottom-bar',
      '.wall-page__title',
      '[data-testid="picture-card"]',
      '[data-testid="picture-card"] picture img',
      '[data-testid="price-tag"]',
    ]) {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      out[sel] = r ? [r.x, r.y + scrollY, r.width, r.height].map((v) => Math.round(v * 10) / 10) : null;
    }
    return out;
  });
}

test('the painted wall is what the app draws: it shows the first picture before any script, and nothing moves', async ({
  page,
  browser,
  consoleErrors,
}, info) => {
  // Someone puts a picture first on the top wall, with a title full of markup.
  const uploader = await browser.newContext();
  const up = await uploader.newPage();
  await signUp(up);
  const amount = Math.ceil((await topTotal(up)) / 100) * 100 + 500;
  await topUp(up, amount);
  const res = await up.request.post('/api/payment/checkout-with-image-upload', {
    multipart: {
      amount: String(amount),
      title: TITLE,
      file: { name: 'p.png', mimeType: 'image/png', buffer: await makeImage(500, 400) },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await uploader.close();

  // A visitor. The app's entry script is held until the painted page has been looked at.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!e.hadRecentInput) w.__shift += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/', { waitUntil: 'commit' });

  const card = page.getByTestId('picture-card').first();
  await expect(card).toHaveAttribute('aria-label', `${TITLE}, place 1`);
  const img = card.locator('picture img');
  await expect(img).toHaveAttribute('alt', TITLE);
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  // The title is text: nothing in it ran, and no element came of it.
  expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).toBeUndefined();
  await expect(page.locator('#root b')).toHaveCount(0);
  // Painted, before the app: the shell says it is not usable yet, and no app script has run.
  await expect(page.locator('#root > .shell')).toHaveAttribute('aria-disabled', 'true');
  await page.screenshot({ path: shot(info.project.name, 'painted-wall-before-app') });

  const before = await boxes(page);
  const parts = ['.header', '.side-panel', '.right-panel', '.bottom-bar', '.floating-dock', '.wall__edge:first-child'];
  const paintedParts = await Promise.all([...parts, '[data-testid="picture-card"]'].map((s) => canonical(page, s)));
  await page.evaluate(() => {
    (window as unknown as { __painted: Element | null }).__painted = document.querySelector('.shell');
  });

  const warnings: string[] = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  release();
  // The app hydrates the painted page: the same elements stay (a mismatch would have React draw them anew).
  await expect(page.locator('#root > .shell:not([aria-disabled])')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __painted: Element }).__painted.isConnected)).toBe(true);
  expect(warnings.filter((w) => w.includes('painted page'))).toEqual([]);
  const after = await boxes(page);
  expect(after).toEqual(before);
  // The face arrives from the image cache once the picture is in, as on a page the app drew itself.
  await expect(card.locator('img.avatar')).toHaveAttribute('src', /^(blob:|data:|\/)/, { timeout: 2_500 });
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
  await page.screenshot({ path: shot(info.project.name, 'painted-wall-app') });

  // The same wall drawn by the app alone (a session cookie the server does not know: the page is not painted, and
  // the app shows a visitor) has the same elements, attributes and text.
  await page.context().addCookies([{ name: 'sid', value: 'unknown', url: page.url() }]);
  await page.goto('/');
  await expect(page.locator('#root > .shell:not([aria-disabled])')).toBeVisible();
  await expect(page.getByTestId('picture-card')).not.toHaveCount(0);
  const drawn = await Promise.all([...parts, '[data-testid="picture-card"]'].map((s) => canonical(page, s)));
  expect(drawn).toEqual(paintedParts);
  dropUnknownSession(consoleErrors);
});

/** The browser's lines about the answers to the unknown session (401): expected, not the app's errors. */
const dropUnknownSession = (errors: string[]) => {
  const kept = errors.filter((e) => !/status of 401/.test(e));
  errors.splice(0, errors.length, ...kept);
};

test('a signed-in visitor and every other page get the page unpainted', async ({ page }) => {
  await signUp(page);
  for (const url of ['/', '/trending', '/upload', '/?index=1']) {
    const html = await (await page.request.get(url)).text();
    expect(html, url).toContain('<div id="root"></div>');
    expect(html, url).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
  }
});
