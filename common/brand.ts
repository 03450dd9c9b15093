/** Which brand a host shows (docs/product.md#tenants). */
export type Tenant = 'cash' | 'charity';

export interface Brand {
  title: string;
  description: string;
}

const BRANDS: Record<Tenant, Brand> = {
  cash: { title: 'The ultimate flex', description: 'Social network with expensive twist.' },
  charity: { title: 'The green app', description: 'Social network with green money.' },
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
