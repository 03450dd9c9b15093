import { expect, signUp, test } from './fixtures';
import { makeImage, shot, topTotal, topUp, uploadPicture } from './pictures-helpers';

const file = async (name: string, width: number, height: number) => ({
  name,
  mimeType: 'image/png',
  buffer: await makeImage(width, height),
});

test('the upload page checks images in the browser and flashes empty fields for 2 s', async ({ page }, info) => {
  await signUp(page);
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Upload a picture' })).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'upload') });

  const release = page.getByRole('button', { name: 'Release' });
  const price = page.getByLabel('Price in dollars');
  await release.click();
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Choose a picture first.')).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'upload-flash') });
  await expect(page.getByText('Choose a picture first.')).toBeHidden({ timeout: 3_000 });
  await expect(price).not.toHaveAttribute('aria-invalid', 'true');

  await price.pressSequentially('0-4e5.');
  await expect(price).toHaveValue('45');

  const chooser = page.getByLabel('Choose a picture');
  await chooser.setInputFiles(await file('small.png', 100, 300));
  await expect(page.getByRole('alert')).toHaveText('Image too small.');
  await expect(release).toBeDisabled();
  await page.screenshot({ path: shot(info.project.name, 'upload-too-small') });

  await chooser.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toHaveText('Choose an image file.');

  await chooser.setInputFiles(await file('tall.png', 300, 1000));
  await expect(page.getByRole('status')).toHaveText('Cropped to 9:16 ratio');
  await expect(release).toBeEnabled();
  const preview = page.getByRole('img', { name: 'Preview of your picture' });
  await expect(preview).toBeVisible();
  // The kept part is 9:16: 300 × 533.
  expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([300, 533]);
  await page.screenshot({ path: shot(info.project.name, 'upload-preview') });

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('dropzone')).toBeVisible();
  await chooser.setInputFiles(await file('wide.png', 1000, 300));
  await expect(page.getByRole('status')).toHaveText('Cropped to 16:9 ratio');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await chooser.setInputFiles(await file('big.png', 2400, 1600));
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
    1620, 1080,
  ]);

  // Dropped files take the same path as chosen ones.
  await page.getByRole('button', { name: 'Cancel' }).click();
  const png = (await makeImage(200, 200)).toString('base64');
  const data = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
    return dt;
  }, png);
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: data });
  await expect(preview).toBeVisible();
});

test('a short balance on upload opens the top-up with the shortfall', async ({ page }) => {
  await signUp(page);
  await page.goto('/upload');
  await page.getByLabel('Price in dollars').fill('3');
  await page.getByLabel('Choose a picture').setInputFiles(await file('p.png', 300, 300));
  await page.getByRole('button', { name: 'Release' }).click();
  await expect(page.getByRole('dialog', { name: 'Top up' })).toContainText('You need $3 more');
});

test('journey: upload through the page, fund it, and a second browser sees the wall re-order live', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(90_000);
  await signUp(page);
  const leader = Math.ceil((await topTotal(page)) / 100);
  await topUp(page, (2 * leader + 10) * 100);
  // Q leads the wall, and the picture uploaded through the page comes right after it.
  const q = await uploadPicture(page, (leader + 2) * 100);

  await page.goto('/upload');
  await page.getByLabel('Price in dollars').fill(String(leader + 1));
  await page.getByLabel('Choose a picture').setInputFiles(await file('mine.png', 480, 640));
  await page.getByRole('button', { name: 'Release' }).click();
  await page.waitForURL(/\/image\/detail\/\d+$/);
  const p = Number(page.url().split('/').pop());
  await expect(page.getByRole('img', { name: 'Picture by' }).first()).toBeVisible();

  const other = await browser.newContext({ viewport: page.viewportSize()!, hasTouch: info.project.name === 'phone' });
  const watcher = await other.newPage();
  await watcher.goto('/');
  const watched = watcher.getByTestId('picture-card');
  await expect(watched.nth(0)).toHaveAttribute('data-picture-id', String(q));
  await expect(watched.nth(1)).toHaveAttribute('data-picture-id', String(p));
  await watcher.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
  await watcher.screenshot({ path: shot(info.project.name, 'live-before') });

  // The other browser's price tag flashes red for the rise, then goes back.
  await watcher.evaluate(() => {
    const seen = ((window as unknown as { flashes: string[] }).flashes = [] as string[]);
    new MutationObserver((records) =>
      records.forEach((r) => (r.target as Element).classList.contains('flash--up') && seen.push('up')),
    ).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  await page.getByTestId('price-tag').click();
  await page.getByRole('textbox', { name: /Dollars to add/ }).fill('2');
  await page.getByRole('button', { name: 'Send $2' }).click();
  await expect(page.getByTestId('price-tag')).toContainText(`$${(leader + 3).toLocaleString('en-US')}`);

  // The other browser re-ranks without a reload: the funded picture now leads, with its new fund.
  await expect(watched.nth(0)).toHaveAttribute('data-picture-id', String(p));
  await expect(watched.nth(1)).toHaveAttribute('data-picture-id', String(q));
  await expect(watched.nth(0).getByTestId('price-tag')).toContainText(`$${(leader + 3).toLocaleString('en-US')}`);
  await expect(watched.nth(0).getByRole('img', { name: 'Place 1, trophy' })).toBeVisible();
  expect(await watcher.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(7);
  expect(await watcher.evaluate(() => (window as unknown as { flashes: string[] }).flashes)).toContain('up');
  await expect(watched.nth(0).getByTestId('price-tag')).not.toHaveClass(/flash--/);
  await watcher.screenshot({ path: shot(info.project.name, 'live-after') });
  await other.close();
});
