import type { Page } from '@playwright/test';
import { TRANSACTION_TYPES } from '../common/transactions';

/** Ids the routes open: a picture, a user's profile, and an item for each tab item detail opens on. */
export interface RouteData {
  pictureId: number;
  userId: number;
  items: { graph: string; myItems: string; store: string };
}

/**
 * Every route of docs/product.md#routes a signed-in user opens on a cash host (the donation routes live on the charity hosts), each
 * transaction type's table, and a path that is no page. The layout and words checks walk this list.
 */
export function signedInRoutes({ pictureId, userId, items }: RouteData): string[] {
  return [
    '/',
    '/trending',
    `/image/top/${pictureId}`,
    `/image/trending/${pictureId}`,
    `/image/profile/${pictureId}`,
    `/image/detail/${pictureId}`,
    `/image/share/${pictureId}`,
    `/profile/${userId}`,
    '/profile/edit',
    '/mobile-profile',
    '/upload',
    '/lootboxes',
    '/lootboxes/fairness',
    '/my-items',
    '/item-store',
    `/items-detail/${items.graph}/graph`,
    `/items-detail/${items.myItems}/my-items`,
    `/items-detail/${items.store}/item-store`,
    '/chat',
    '/notifications',
    '/mobile-notifications',
    '/verify-email?userId=1&secret=wrong',
    '/goodwill',
    '/goodwill/proof',
    '/transactions',
    ...TRANSACTION_TYPES.map((type) => `/transactions/${type}`),
    '/success',
    '/cancel',
    '/close-the-window',
    '/admin-console',
    '/moderation',
    '/moderation-log',
    '/blocked',
    NOT_A_PAGE,
  ];
}

export const NOT_A_PAGE = '/no-such-page';

/** Controls a screen reader could not name: no label, no text, no aria-label. */
export function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        'button, a[href], input, select, textarea, [role="slider"], [role="tab"]',
      ),
    ]
      .filter((el) => {
        const label =
          el.getAttribute('aria-label') ||
          el.getAttribute('aria-labelledby') ||
          el.getAttribute('title') ||
          (el as HTMLInputElement).labels?.length ||
          el.textContent?.trim() ||
          el.querySelector('img[alt]:not([alt=""])');
        return !label && el.getAttribute('type') !== 'hidden';
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}
