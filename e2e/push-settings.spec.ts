import type { Page } from '@playwright/test';
import type { PushPreferences } from '../common/api/push';
import { PUSH_TYPE_LABELS, PUSH_TYPES } from '../common/push';
import { expect, isPhone, signUp, test } from './fixtures';
import { shot } from './pictures-helpers';

// The service worker is what these tests are about (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * docs/product.md#push: the "Push notifications" section of the notifications page (/mobile-notifications on a
 * phone, where its bell goes): the switches per type are the user's, kept by the server; this device's control says
 * how the browser stands. Headless Chromium has no push service, so subscribing is not asserted to succeed, only that
 * whatever happens is said in words.
 */

const DEVICE_LINES = [
  'Push is off on this device.',
  'Push is on on this device.',
  'Push is not supported in this browser',
  'Notifications are blocked in your browser settings',
];

async function openSection(page: Page) {
  await page.goto(isPhone(page) ? '/mobile-notifications' : '/notifications');
  const section = page.getByTestId('push-settings');
  await section.getByText('Push notifications').click();
  await expect(section.getByRole('switch')).toHaveCount(PUSH_TYPES.length);
  return section;
}

async function noSideways(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test('the push switches load all on, one switched off stays off after a reload, and the server has it', async ({
  page,
}, info) => {
  await signUp(page);
  let section = await openSection(page);
  for (const type of PUSH_TYPES) {
    await expect(section.getByRole('switch', { name: PUSH_TYPE_LABELS[type] })).toBeChecked();
  }
  await expect(section.getByTestId('push-device').getByRole('status')).toHaveText(
    new RegExp(`^(${DEVICE_LINES.map((l) => l.replace('.', '\\.')).join('|')})$`),
  );
  await noSideways(page);
  await page.screenshot({ path: shot(info.project.name, 'push-settings'), fullPage: true });

  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/push/preferences') && r.request().method() === 'PUT',
  );
  await section.getByRole('switch', { name: PUSH_TYPE_LABELS.REACTION }).click();
  expect((await saved).status()).toBe(200);
  await expect(section.getByRole('switch', { name: PUSH_TYPE_LABELS.REACTION })).not.toBeChecked();
  await expect(section.getByRole('alert')).toHaveCount(0);

  const prefs = (await (await page.request.get('/api/push/preferences')).json()) as PushPreferences;
  expect(prefs).toEqual({ ...Object.fromEntries(PUSH_TYPES.map((t) => [t, true])), REACTION: false });

  await page.reload();
  section = await openSection(page);
  for (const type of PUSH_TYPES) {
    const toggle = section.getByRole('switch', { name: PUSH_TYPE_LABELS[type] });
    if (type === 'REACTION') await expect(toggle).not.toBeChecked();
    else await expect(toggle).toBeChecked();
  }
});

test("turning push on says in words how it went, never an error's name or a status", async ({
  page,
  context,
  consoleErrors,
}) => {
  await context.grantPermissions(['notifications']);
  await signUp(page);
  const section = await openSection(page);
  const device = section.getByTestId('push-device');
  await expect(device.getByRole('status')).not.toHaveText('Checking this device...');
  const turnOn = device.getByRole('button', { name: 'Turn on push on this device' });
  if (await turnOn.isVisible()) {
    await turnOn.click();
    // Either a subscription (a browser with a push service) or a sentence saying why not.
    await expect(device.getByText('Push is on on this device.').or(device.getByRole('alert'))).toBeVisible({
      timeout: 20_000,
    });
  }
  await expect(device).not.toContainText(/Error|\b[45]\d\d\b|undefined|\[object/);
  // Chromium's own line for a test browser's context, which has no push service: the browser's, not the app's.
  const own = /^console: Chrome currently does not support the Push API in incognito mode/;
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !own.test(e)));
});

test('notifications blocked for the site: the section says so and offers no button; the switches still show', async ({
  page,
}) => {
  await signUp(page);
  // Playwright grants but never denies: Chromium's own protocol sets 'denied' for this origin in this context.
  const cdp = await page.context().newCDPSession(page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.setPermission', {
    permission: { name: 'notifications' },
    setting: 'denied',
    origin: new URL(page.url()).origin,
    browserContextId: targetInfo.browserContextId,
  });
  const section = await openSection(page);
  await expect(section.getByTestId('push-device')).toContainText('Notifications are blocked in your browser settings');
  await expect(section.getByRole('button', { name: /Turn (on|off) push/ })).toHaveCount(0);
  await expect(section.getByRole('switch')).toHaveCount(PUSH_TYPES.length);
  await noSideways(page);
});
