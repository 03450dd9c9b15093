import { expect, signUp, test } from './fixtures';
import { openBoxes, stockUp } from './lootbox-helpers';
import { shot } from './pictures-helpers';

test('verifies an opening in the browser after rotating the server seed', async ({ page }, info) => {
  await signUp(page);
  await page.goto('/lootboxes');
  await page.getByRole('link', { name: /Provably fair/ }).click();
  await expect(page).toHaveURL(/\/lootboxes\/fairness$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Provably fair lootboxes');

  const hash = page.getByTestId('server-seed-hash');
  await expect(hash).toHaveText(/^[0-9a-f]{64}$/);
  const committed = (await hash.textContent())!;

  // A client seed with a space is refused before it is sent; a good one is kept.
  const seed = page.getByLabel('Client seed');
  await seed.fill('has space');
  await page.getByRole('button', { name: 'Set client seed' }).click();
  await expect(
    page.getByText('A client seed is 1 to 64 characters: letters, digits and symbols, no spaces.'),
  ).toBeVisible();
  await seed.fill('my-e2e-seed!');
  await page.getByRole('button', { name: 'Set client seed' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Client seed set.' })).toBeVisible();
  await expect(page.getByTestId('nonce')).toHaveText('0');

  // Open two boxes through the lootboxes page's calls; their seed is hidden while in use.
  const found = await openBoxes(page, 2);
  await page.reload();
  await expect(page.getByTestId('nonce')).toHaveText('2');
  const openings = page.getByTestId('opening');
  await expect(openings).toHaveCount(2);
  await expect(openings.first()).toHaveAttribute('data-nonce', '1');
  await expect(openings.first()).toContainText('Hidden while in use');
  await expect(openings.first()).toContainText('my-e2e-seed!');
  await expect(openings.getByRole('button', { name: /^Verify/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Rotate server seed' }).click();
  const revealed = page.getByRole('status').filter({ hasText: 'Revealed server seed' });
  await expect(revealed).toContainText(committed);
  await expect(hash).not.toHaveText(committed);
  await expect(page.getByTestId('nonce')).toHaveText('0');

  for (const nonce of ['1', '0']) {
    const row = page.locator(`[data-testid="opening"][data-nonce="${nonce}"]`);
    await row.getByRole('button', { name: `Verify the opening of nonce ${nonce}` }).click();
    await expect(row.getByTestId('verdict')).toHaveText('✓ Verified');
  }
  // What the page verified is what the boxes gave.
  const shown = await openings
    .first()
    .locator('[data-item]')
    .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.item));
  expect(shown).toEqual(found[1]!.lootSequence);
  await page.screenshot({ path: shot(info.project.name, 'fairness-verified'), fullPage: true });
});

test('marks an opening not verified when what the server lists differs from the draw', async ({ page }) => {
  await signUp(page);
  await stockUp(page, { keys: 1, boxes: 1 });
  expect((await page.request.post('/api/open/lootbox', { data: {} })).status()).toBe(200);
  expect((await page.request.post('/api/lootbox/fairness/rotate', { data: {} })).status()).toBe(200);

  // A server that lied about an item would be caught: change the first item of the listed opening.
  await page.route('**/api/lootbox/openings?*', async (route) => {
    const res = await route.fetch();
    const list = (await res.json()) as { lootSequence: string[] }[];
    const first = list[0]!;
    first.lootSequence[0] = first.lootSequence[0] === 'COMMON_LETTER_Z' ? 'COMMON_LETTER_Y' : 'COMMON_LETTER_Z';
    await route.fulfill({ response: res, json: list });
  });
  await page.goto('/lootboxes/fairness');
  await page.getByRole('button', { name: 'Verify the opening of nonce 0' }).click();
  await expect(page.getByTestId('verdict')).toHaveText('✗ Not verified: The recomputed draw gives other items.');
});
