// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, type InfiniteData } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminReports } from '../../../../../common/api/admin';
import { testRoot } from '../../../lib/test-root';
import { click, fakeFetch, submit, type } from '../lib/test-helpers';
import { FORM_TEXT } from '../lib/forms';
import { DecideForm } from './DecideForm';

const mount = testRoot();
afterEach(() => vi.unstubAllGlobals());

const report = {
  id: 5,
  type: 'COMMENT',
  messageId: 40,
  reason: 'spam',
  description: 'ads',
  reporter: { id: 2, username: 'watcher' },
  messageText: 'buy now',
  createdOn: '2026-01-01T00:00:00.000Z',
  decision: null,
} satisfies AdminReports[number];

function render(answer: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(answer);
  vi.stubGlobal('fetch', fake.fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData<InfiniteData<AdminReports>>(['admin', 'reports'], {
    pages: [[report, { ...report, id: 6, messageId: 41 }]],
    pageParams: [0],
  });
  const done = vi.fn();
  mount.render(
    <QueryClientProvider client={client}>
      <DecideForm report={{ ...report, reason: 'other-thing' }} onDone={done} />
    </QueryClientProvider>,
  );
  const host = mount.host();
  return {
    calls: fake.calls,
    client,
    done,
    form: host.querySelector('form')!,
    radio: (value: string) => host.querySelector<HTMLInputElement>(`input[type="radio"][value="${value}"]`)!,
    selects: [...host.querySelectorAll('select')],
    reasons: host.querySelector('textarea')!,
    alerts: () => [...host.querySelectorAll('[role="alert"]')].map((a) => a.textContent),
  };
}

describe('the decide form', () => {
  it('asks for an action, a category and a statement of reasons before sending anything', async () => {
    const f = render(() => ({ status: 200, body: {} }));
    await submit(f.form);
    expect(f.alerts()).toEqual([FORM_TEXT.chooseAction, FORM_TEXT.chooseCategory, FORM_TEXT.reasonsRequired]);
    // Spaces alone are no statement.
    click(f.radio('remove'));
    type(f.selects[0]!, 'hate-speech');
    type(f.reasons, '   ');
    await submit(f.form);
    expect(f.alerts()).toEqual([FORM_TEXT.reasonsRequired]);
    expect(f.calls).toHaveLength(0);
  });

  it('offers every category, Illegal Content among them, and every suspension', () => {
    const f = render(() => ({ status: 200, body: {} }));
    const categories = [...f.selects[0]!.options].map((o) => o.textContent);
    expect(categories).toContain('Illegal Content');
    expect(categories).toContain('Political Propaganda');
    expect([...f.selects[1]!.options].map((o) => o.textContent)).toEqual([
      'Do not suspend',
      '1 day',
      '7 days',
      '30 days',
      'For good',
    ]);
  });

  it('offers the refund only with a removal, and sends the decision under an Idempotency-Key', async () => {
    const f = render(() => ({
      status: 200,
      body: { decisionId: 9, action: 'remove', contentType: 'COMMENT', contentId: 40, reports: [5] },
    }));
    click(f.radio('dismiss'));
    expect(mount.host().textContent).not.toContain('Refund the spend');
    click(f.radio('remove'));
    click(mount.host().querySelector('input[type="checkbox"]'));
    type(f.selects[0]!, 'illegal-content');
    type(f.selects[1]!, '0');
    type(f.reasons, '  Selling stolen cards.  ');
    await submit(f.form);
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0]!.url).toBe('/api/admin/reports/decide');
    expect(f.calls[0]!.body).toEqual({
      reportId: 5,
      action: 'remove',
      category: 'illegal-content',
      reasons: 'Selling stolen cards.',
      suspendDays: 0,
      refund: true,
    });
    expect(f.calls[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(f.done).toHaveBeenCalledOnce();
    // The decided report says so; the other one stays open.
    const pages = f.client.getQueryData<InfiniteData<AdminReports>>(['admin', 'reports'])!.pages[0]!;
    expect(pages[0]!.decision?.action).toBe('remove');
    expect(pages[1]!.decision).toBeNull();
  });

  it("shows the server's field errors under their fields, and 'already decided' on a 409", async () => {
    let status = 400;
    const f = render(() =>
      status === 400
        ? { status, body: [{ field: 'reasons', errorText: 'Too long for the server.' }] }
        : { status, body: { message: 'Already decided' } },
    );
    click(f.radio('dismiss'));
    type(f.selects[0]!, 'spam');
    type(f.reasons, 'Not spam after all.');
    await submit(f.form);
    const error = mount.host().querySelector('.field__error');
    expect(error?.textContent).toBe('Too long for the server.');
    expect(f.reasons.getAttribute('aria-invalid')).toBe('true');
    status = 409;
    await submit(f.form);
    expect(f.alerts()).toEqual([FORM_TEXT.alreadyDecided]);
    expect(f.done).not.toHaveBeenCalled();
  });
});
