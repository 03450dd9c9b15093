import type { Tenant } from '../../../common/brand';

// The server writes these into index.html per request host (server/src/modules/spa/spa.routes.ts).
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

export const tenant: Tenant = meta('tenant') === 'charity' ? 'charity' : 'cash';
export const googleClientId: string | undefined = meta('google-client-id') || undefined;
