// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationPreview } from '../../../../../common/api/notifications';
import { BrowserRouter } from '../../../lib/router';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { previewQuery } from '../api/notifications';
import { NotificationPreviewList } from './NotificationPreviewList';

const mount = testRoot();
beforeEach(() => setLoggedIn(true, false));

const note = (id: number): Notification => ({
  id,
  b: { topic: 'IMAGE_LIKE', seen: false, createdOn: '2026-04-01T12:00:00.000Z' },
  actorId: id + 100,
  username: `fan${id}`,
  profileUrl: null,
  message: null,
  commentId: null,
  pictureId: 3,
  amount: 100,
  item: null,
  multiplicity: 1,
  uniqueActors: 1,
});

function render(preview: NotificationPreview | undefined) {
  const client = new QueryClient();
  if (preview) client.setQueryData(previewQuery.queryKey, preview);
  mount.render(
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <NotificationPreviewList />
      </BrowserRouter>
    </QueryClientProvider>,
  );
}
const text = () => mount.host().textContent ?? '';
const rows = () => mount.host().querySelectorAll('[data-testid="notification"]').length;

describe('the bubble', () => {
  it("says 'No notifications' when there are none", () => {
    render({ notifications: [], unreadCount: 0 });
    expect(text()).toBe('No notifications');
  });

  it("says 'Loading notifications...' while the preview loads", () => {
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    render(undefined);
    expect(text()).toBe('Loading notifications...');
    vi.unstubAllGlobals();
  });

  it("shows fewer than 5 without 'All notifications'", () => {
    render({ notifications: [4, 3, 2, 1].map(note), unreadCount: 4 });
    expect(rows()).toBe(4);
    expect(text()).not.toContain('All notifications');
  });

  it("stops at 5 and offers 'All notifications'", () => {
    render({ notifications: [6, 5, 4, 3, 2, 1].map(note), unreadCount: 6 });
    expect(rows()).toBe(5);
    expect(text()).toContain('fan6 put $1 on your picture');
    expect(text()).toContain('All notifications');
  });
});
