import { brandOf, type Tenant } from '../../../../common/brand';

/** Where the share target posts (docs/product.md#push): the service worker answers it, else spa.routes.ts. */
export const SHARE_TARGET_PATH = '/share-target';

/** The icons under web/public/icons/ (drawn by scripts/make-icons.ts). */
export const ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const;

/**
 * The web app manifest of one tenant (docs/product.md#push, docs/decisions.md "Issue 27: the service worker and the
 * manifest"): the host's brand, the look's colours, the icons and the share target for one image.
 */
export function webManifest(tenant: Tenant) {
  const brand = brandOf(tenant);
  return {
    id: '/',
    name: brand.title,
    short_name: brand.shortName,
    description: brand.description,
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: brand.themeColor,
    background_color: brand.backgroundColor,
    icons: ICONS,
    share_target: {
      action: SHARE_TARGET_PATH,
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { files: [{ name: 'image', accept: ['image/*'] }] },
    },
  };
}
