import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { tenant } from '../lib/tenant';
import { Placeholder } from '../pages/Placeholder';

/** Route chunks load on demand, so the wall's first load carries only the shell and the wall. */
const page =
  (load: () => Promise<ComponentType>): RouteObject['lazy'] =>
  async () => ({ Component: await load() });
const soon = (title: string): RouteObject['element'] => <Placeholder title={title} />;

const wall = page(() => import('../pages/WallPage').then((m) => m.default));
const items = (name: 'MyItemsPage' | 'ItemStorePage') => page(() => import('../pages/ItemsPages').then((m) => m[name]));
const payment = (name: 'SuccessPage' | 'CancelPage' | 'CloseTheWindowPage') =>
  page(() => import('../pages/PaymentPages').then((m) => m[name]));

/** SPEC §2's route table. A later issue replaces a `soon(...)` line with its screen's `page(...)`. */
export const routes: RouteObject[] = [
  { index: true, lazy: wall },
  { path: 'trending', lazy: wall },
  { path: 'image/share/:imageId', lazy: page(() => import('../pages/SharePage').then((m) => m.default)) },
  { path: 'image/:browsing/:id', lazy: page(() => import('../pages/ImageDetailPage').then((m) => m.default)) },
  { path: 'profile/edit', lazy: page(() => import('../pages/SetProfilePage').then((m) => m.default)) },
  { path: 'profile/:userId', lazy: page(() => import('../pages/ProfilePage').then((m) => m.default)) },
  { path: 'mobile-profile', lazy: page(() => import('../pages/MobileProfilePage').then((m) => m.default)) },
  { path: 'upload', lazy: page(() => import('../pages/UploadPage').then((m) => m.default)) },
  { path: 'lootboxes', lazy: page(() => import('../pages/LootboxesPage').then((m) => m.default)) },
  { path: 'lootboxes/fairness', lazy: page(() => import('../pages/FairnessPage').then((m) => m.default)) },
  { path: 'my-items', lazy: items('MyItemsPage') },
  { path: 'item-store', lazy: items('ItemStorePage') },
  { path: 'items-detail/:itemType/:type', lazy: page(() => import('../pages/ItemDetailPage').then((m) => m.default)) },
  { path: 'chat', element: soon('Chat') },
  { path: 'notifications', element: soon('Notifications') },
  { path: 'mobile-notifications', element: soon('Notifications') },
  { path: 'verify-email', lazy: page(() => import('../pages/VerifyEmailPage').then((m) => m.default)) },
  { path: 'goodwill', element: soon('Swag') },
  { path: 'goodwill/proof', element: soon('Swag proof') },
  { path: 'transactions', element: soon('Transactions') },
  { path: 'transactions/:type', element: soon('Transaction details') },
  { path: 'success', lazy: payment('SuccessPage') },
  { path: 'cancel', lazy: payment('CancelPage') },
  { path: 'close-the-window', lazy: payment('CloseTheWindowPage') },
  { path: 'admin-console', element: soon('Admin console') },
  // Donation links exist only where card top-up does not (SPEC §2: registered when the origin check is false).
  ...(tenant === 'charity'
    ? [
        { path: 'my-donations', element: soon('Donation links') },
        { path: 'public-donations', element: soon('Donation links') },
      ]
    : []),
  { path: '*', element: soon('Page not found') },
];
