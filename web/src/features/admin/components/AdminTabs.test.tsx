// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminReports, ConservationReport } from '../../../../../common/api/admin';
import { BrowserRouter } from '../../../lib/router';
import { testRoot } from '../../../lib/test-root';
import { ledgerCheckQuery, worthyQuery } from '../api/admin';
import { AdminConsole } from './AdminConsole';
import { HealthCheck } from './HealthCheck';
import { ReportsList } from './ReportsList';

const mount = testRoot();
// Anything not filled in below answers as it does for a signed-in non-admin.
beforeEach(() =>
  vi.stubGlobal(
    'fetch',
    async () => new Response(JSON.stringify({ message: 'Administrators only.' }), { status: 403 }),
  ),
);
afterEach(() => vi.unstubAllGlobals());

function render(ui: ReactNode, fill: (client: QueryClient) => void = () => {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  fill(client);
  mount.render(
    <QueryClientProvider client={client}>
      <BrowserRouter>{ui}</BrowserRouter>
    </QueryClientProvider>,
  );
}

const text = () => mount.host().textContent ?? '';
const tabs = [{ id: 'a', label: 'Free Fetch', panel: <p>panel</p> }];

describe('the admin console', () => {
  it("shows 'Loading' / 'Please wait...' while the admin check runs", () => {
    render(<AdminConsole tabs={tabs} />);
    expect(mount.host().querySelector('h1')?.textContent).toBe('Loading');
    expect(text()).toContain('Please wait...');
    expect(text()).not.toContain('panel');
  });

  it('tells a non-admin plainly that the page is for administrators, with a link home', async () => {
    render(<AdminConsole tabs={tabs} />);
    for (let i = 0; i < 50 && !text().includes('administrators'); i++) {
      await act(() => new Promise((r) => setTimeout(r, 5)));
    }
    expect(mount.host().querySelector('h1')?.textContent).toBe('Administrators only');
    expect(text()).toContain('This page is for administrators.');
    expect(mount.host().querySelector('a')?.getAttribute('href')).toBe('/');
    expect(text()).not.toContain('Please wait...');
    expect(text()).not.toContain('panel');
  });

  it('offers to try again when the check could not be made', async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 503 }));
    render(<AdminConsole tabs={tabs} />);
    for (let i = 0; i < 50 && !text().includes('Try again'); i++) {
      await act(() => new Promise((r) => setTimeout(r, 5)));
    }
    expect(text()).toContain('The console could not check who you are.');
    expect(text()).not.toContain('panel');
  });

  it("shows 'Admin Console' and its tabs to an admin", () => {
    render(<AdminConsole tabs={tabs} />, (c) => c.setQueryData(worthyQuery.queryKey, { message: 'YES' }));
    expect(mount.host().querySelector('h1')?.textContent).toBe('Admin Console');
    expect(mount.host().querySelector('[role="tab"]')?.textContent).toBe('Free Fetch');
    expect(text()).toContain('panel');
  });

  it('lists each report: type, reason, description, reporter, the reported text and time', () => {
    const reports: AdminReports = [
      {
        id: 2,
        type: 'CHAT',
        messageId: 9,
        reason: 'spam',
        description: 'Buy my stuff again',
        reporter: { id: 4, username: 'watcher' },
        messageText: 'cheap keys here',
        createdOn: new Date().toISOString(),
      },
      {
        id: 1,
        type: 'COMMENT',
        messageId: 3,
        reason: 'hate-speech',
        description: 'Rude',
        reporter: { id: 5, username: 'other' },
        messageText: null,
        createdOn: new Date().toISOString(),
      },
    ];
    render(<ReportsList />, (c) => c.setQueryData(['admin', 'reports'], { pages: [reports], pageParams: [0] }));
    const rows = mount.host().querySelectorAll('[data-testid="report"]');
    expect(rows).toHaveLength(2);
    // The category as the report popup named it.
    for (const part of ['Chat message', 'Spam', 'Buy my stuff again', 'watcher', 'cheap keys here'])
      expect(rows[0]!.textContent).toContain(part);
    expect(rows[0]!.querySelector('time')).not.toBeNull();
    expect(rows[1]!.textContent).toContain('Comment');
    expect(rows[1]!.textContent).toContain('Hate Speech');
    expect(rows[1]!.textContent).toContain('The message no longer exists.');
  });

  it('shows each figure of the conservation check with ok or failed', () => {
    const report: ConservationReport = {
      ok: false,
      postingsTotal: 0,
      unbalancedEntries: 1,
      negativeBalances: 0,
      driftedAccounts: 0,
      userMoney: 100,
      itemsMinted: 0,
      itemsInExistence: 0,
      unbalancedItemEntries: 0,
      driftedInventories: 0,
      escrowMismatches: 0,
      heldMismatches: 0,
      crossedBooks: 0,
      goodwillMismatches: 0,
    };
    render(<HealthCheck />, (c) => c.setQueryData(ledgerCheckQuery.queryKey, report));
    const rows = [...mount.host().querySelectorAll('[data-testid="health-figure"]')].map((r) => r.textContent);
    expect(rows).toHaveLength(13);
    expect(rows).toContain('Unbalanced entries1failed');
    expect(rows).toContain('Sum of all postings0ok');
    expect(text()).toContain('The books do not balance: failed');
  });
});
