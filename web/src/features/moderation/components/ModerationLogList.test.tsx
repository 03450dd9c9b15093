// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModerationLog } from '../../../../../common/api/moderation';
import { testRoot } from '../../../lib/test-root';
import { click, fakeFetch, settle } from '../lib/test-helpers';
import { ModerationLogList } from './ModerationLogList';

const mount = testRoot();
afterEach(() => vi.unstubAllGlobals());

const entry = (i: number): ModerationLog['entries'][number] => ({
  decidedOn: new Date(Date.UTC(2026, 0, 20 - i)).toISOString(),
  contentType: i % 2 ? 'CHAT' : 'PICTURE',
  category: 'spam',
  action: 'remove',
  suspended: i === 0,
  appeal: i === 1 ? 'REVERSED' : null,
});

describe('the public moderation log', () => {
  it('shows a page, loads the next with its cursor on Load more, and stops at the last', async () => {
    const fake = fakeFetch((url) =>
      url === '/api/moderation-log'
        ? { status: 200, body: { entries: [entry(0), entry(1)], cursor: '77' } }
        : { status: 200, body: { entries: [entry(2)], cursor: null } },
    );
    vi.stubGlobal('fetch', fake.fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    mount.render(
      <QueryClientProvider client={client}>
        <ModerationLogList />
      </QueryClientProvider>,
    );
    await settle();
    const rows = () => [...mount.host().querySelectorAll('[data-testid="log-entry"]')].map((r) => r.textContent);
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toContain('Picture');
    expect(rows()[0]).toContain('Spam');
    expect(rows()[0]).toContain('Removed');
    expect(rows()[0]).toContain('Author suspended');
    expect(rows()[1]).toContain('Chat message');
    expect(rows()[1]).toContain('Appeal reversed');
    const more = () => [...mount.host().querySelectorAll('button')].find((b) => b.textContent === 'Load more');
    click(more());
    await settle();
    expect(fake.calls.map((c) => c.url)).toEqual(['/api/moderation-log', '/api/moderation-log?cursor=77']);
    expect(rows()).toHaveLength(3);
    expect(more()).toBeUndefined();
  });
});
