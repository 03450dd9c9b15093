import { lazy, type ComponentType, type ReactNode } from 'react';
import type { RouteObject } from '../lib/router';
import { tenant } from '../lib/tenant';
import WallPage from '../pages/WallPage';

/**
 * Every screen but the wall is a chunk of its own, loaded when its route is first shown (the shell's Suspense shows
 * 'Loading...' meanwhile, and a navigation keeps the current screen until the next one is ready). The wall is in the
 * entry chunk: it is the page most visits start on, and a separate chunk would only be fetched after the entry ran.
 */
const page = (load: () => Promise<{ default: ComponentType }>): ReactNode => {
  const Page = lazy(load);
  return <Page />;
};

const items = (name: 'MyItemsPage' | 'ItemStorePage') =>
  page(() => import('../pages/ItemsPages').then((m) => ({ default: m[name] })));
const donations = (name: 'MyDonationsPage' | 'PublicDonationsPage') =>
  page(() => import('../pages/DonationsPage').then((m) => ({ default: m[name] })));
const notFound = (name: 'NotFoundPage' | 'DonationsElsewherePage') =>
  page(() => import('../pages/NotFoundPage').then((m) => ({ default: m[name] })));
const payment = (name: 'SuccessPage' | 'CancelPage' | 'CloseTheWindowPage') =>
  page(() => import('../pages/PaymentPages').then((m) => ({ default: m[name] })));

/** The last route's path: anything no other route takes. */
export const NOT_FOUND = '*';

/**
 * The route table of docs/product.md#routes. The first route whose path matches is shown (lib/router.tsx), so a path with a fixed segment
 * comes before a parameter in its place. Anything else is not found, /week included (docs/decisions.md "Not found").
 */
export const routes: RouteObject[] = [
  { path: '/', element: <WallPage /> },
  { path: '/trending', element: <WallPage /> },
  { path: '/image/share/:imageId', element: page(() => import('../pages/SharePage')) },
  { path: '/image/:browsing/:id', element: page(() => import('../pages/ImageDetailPage')) },
  { path: '/profile/edit', element: page(() => import('../pages/SetProfilePage')) },
  { path: '/profile/:userId', element: page(() => import('../pages/ProfilePage')) },
  { path: '/mobile-profile', element: page(() => import('../pages/MobileProfilePage')) },
  { path: '/upload', element: page(() => import('../pages/UploadPage')) },
  { path: '/lootboxes', element: page(() => import('../pages/LootboxesPage')) },
  { path: '/lootboxes/fairness', element: page(() => import('../pages/FairnessPage')) },
  { path: '/my-items', element: items('MyItemsPage') },
  { path: '/item-store', element: items('ItemStorePage') },
  { path: '/items-detail/:itemType/:type', element: page(() => import('../pages/ItemDetailPage')) },
  { path: '/chat', element: page(() => import('../pages/ChatPage')) },
  { path: '/notifications', element: page(() => import('../pages/NotificationsPage')) },
  { path: '/mobile-notifications', element: page(() => import('../pages/MobileNotificationsPage')) },
  { path: '/verify-email', element: page(() => import('../pages/VerifyEmailPage')) },
  { path: '/goodwill', element: page(() => import('../pages/GoodwillPage')) },
  { path: '/goodwill/proof', element: page(() => import('../pages/GoodwillProofPage')) },
  { path: '/transactions', element: page(() => import('../pages/TransactionsPage')) },
  { path: '/transactions/:type', element: page(() => import('../pages/TransactionDetailPage')) },
  { path: '/success', element: payment('SuccessPage') },
  { path: '/cancel', element: payment('CancelPage') },
  { path: '/close-the-window', element: payment('CloseTheWindowPage') },
  { path: '/admin-console', element: page(() => import('../pages/AdminConsolePage')) },
  { path: '/moderation', element: page(() => import('../pages/ModerationPage')) },
  { path: '/moderation-log', element: page(() => import('../pages/ModerationLogPage')) },
  { path: '/blocked', element: page(() => import('../pages/BlockedPage')) },
  // Donation links exist only where card top-up does not (docs/product.md#tenants: registered when the origin check is false); a
  // cash tenant says where they live.
  ...(tenant === 'charity'
    ? [
        { path: '/my-donations', element: donations('MyDonationsPage') },
        { path: '/public-donations', element: donations('PublicDonationsPage') },
      ]
    : [
        { path: '/my-donations', element: notFound('DonationsElsewherePage') },
        { path: '/public-donations', element: notFound('DonationsElsewherePage') },
      ]),
  { path: NOT_FOUND, element: notFound('NotFoundPage') },
];
