// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../../../common/api/users';
import { api } from '../../../lib/api';
import { BrowserRouter } from '../../../lib/router';
import { setLoggedIn } from '../../../lib/session';
import { clearSuspension } from '../../../lib/suspension';
import { testRoot } from '../../../lib/test-root';
import { profileQuery } from '../../users/api/profile';
import { SuspendedBanner, suspendedText } from './SuspendedBanner';

const mount = testRoot();
beforeEach(() => {
  setLoggedIn(true, false);
  clearSuspension();
});
afterEach(() => vi.unstubAllGlobals());

function render(profile: Partial<Profile> & { suspended?: boolean; suspendedUntil?: string | null }) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(profileQuery.queryKey, { id: 1, balance: 0, ...profile } as Profile);
  mount.render(
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <SuspendedBanner />
      </BrowserRouter>
    </QueryClientProvider>,
  );
}

const banner = () => mount.host().querySelector('[data-testid="suspended-banner"]');
const later = new Date(Date.now() + 86_400_000).toISOString();

describe('the suspension banner', () => {
  it('is absent for a profile without the fields', () => {
    render({});
    expect(banner()).toBeNull();
  });

  it('is absent for a profile not suspended', () => {
    render({ suspended: false, suspendedUntil: null });
    expect(banner()).toBeNull();
  });

  it('says until when, from the profile', () => {
    render({ suspended: true, suspendedUntil: later });
    expect(banner()?.textContent).toContain(suspendedText(later));
    expect(banner()?.querySelector('a')?.getAttribute('href')).toBe('/moderation');
  });

  it('says for good', () => {
    render({ suspended: true, suspendedUntil: null });
    expect(banner()?.textContent).toContain('suspended for good');
  });

  it('appears when any call answers 403 with suspendedUntil', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ message: 'Suspended', suspendedUntil: later }), { status: 403 }),
    );
    render({});
    await act(async () => {
      await api('/api/picture/comment', { body: {}, idempotencyKey: 'k' }).catch(() => undefined);
    });
    expect(banner()?.textContent).toContain(suspendedText(later));
  });

  it('takes no notice of a 403 that is not a suspension', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ message: 'Administrators only.' }), { status: 403 }),
    );
    render({});
    await act(async () => {
      await api('/api/admin/reports').catch(() => undefined);
    });
    expect(banner()).toBeNull();
  });
});
