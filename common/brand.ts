/** Which brand a host shows (docs/product.md#tenants). */
export type Tenant = 'cash' | 'charity';

export interface Brand {
  title: string;
  description: string;
  /** The installed app's name under its icon (the manifest's `short_name`, docs/product.md#push). */
  shortName: string;
  /** The look's accent (`--accent` in web/src/styles.css): the manifest's and the page's theme colour. */
  themeColor: string;
  /** The page's background (`--bg` in web/src/styles.css): the installed app's splash screen. */
  backgroundColor: string;
}

/** Both tenants wear the one look of web/src/styles.css; each keeps its own words. */
const LOOK = { themeColor: '#0f766e', backgroundColor: '#f4f6f8' };

const BRANDS: Record<Tenant, Brand> = {
  cash: { title: 'The ultimate flex', description: 'Social network with expensive twist.', shortName: 'Flex', ...LOOK },
  charity: { title: 'The green app', description: 'Social network with green money.', shortName: 'Green app', ...LOOK },
};

export const brandOf = (tenant: Tenant): Brand => BRANDS[tenant];

/** Pages whose title adds a word to the product name (docs/product.md#tenants). */
const PAGE_WORDS: [RegExp, string][] = [
  [/^\/image(\/|$)/, 'Images'],
  [/^\/lootboxes\/?$/, 'Lootboxes'],
  [/^\/my-items\/?$/, 'Inventory'],
  [/^\/item-store\/?$/, 'Store'],
  [/^\/chat\/?$/, 'Chat'],
];

export function pageTitle(tenant: Tenant, pathname: string): string {
  const brand = BRANDS[tenant].title;
  const word = PAGE_WORDS.find(([pattern]) => pattern.test(pathname))?.[1];
  return word ? `${brand} | ${word}` : brand;
}
