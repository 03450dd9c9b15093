// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { DonationLink } from '../../../../../common/api/charity';
import { testRoot } from '../../../lib/test-root';
import { DonationCard } from './DonationCard';

const mount = testRoot();

const link = (over: Partial<DonationLink> = {}): DonationLink => ({
  id: 7,
  charityName: null,
  link: 'www.redcross.org/donate?id=1',
  badgeId: 'BADGE42',
  createdOn: new Date(Date.now() - 3 * 60_000).toISOString(),
  decided: false,
  approved: false,
  adminRejectionReason: null,
  sender: { id: 3, username: 'giver' },
  publiclyVisible: true,
  adminCategory: null,
  amount: null,
  ...over,
});

const text = () => mount.host().textContent ?? '';

describe('a donation card', () => {
  it('shows a pending link: the badge, the hostname opening in a new tab with https:// added, the time ago', () => {
    mount.render(<DonationCard link={link()} />);
    expect(text()).toContain('Pending');
    expect(text()).toContain('Badge id');
    expect(text()).toContain('BADGE42');
    expect(text()).not.toContain('Charity Name');
    const a = mount.host().querySelector('a')!;
    expect(a.textContent).toBe('www.redcross.org');
    expect(a.getAttribute('href')).toBe('https://www.redcross.org/donate?id=1');
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    expect(mount.host().querySelector('time')).not.toBeNull();
    expect(text()).not.toContain('giver');
  });

  it('shows the charity of an approved link, and the rejection reason only of a rejected one', () => {
    mount.render(<DonationCard link={link({ decided: true, approved: true, charityName: 'Red Cross' })} />);
    expect(text()).toContain('Approved');
    expect(text()).toContain('Charity Name');
    expect(text()).toContain('Red Cross');
    expect(text()).not.toContain('Rejection Reason');
    mount.render(<DonationCard link={link({ decided: true, adminRejectionReason: 'Not a charity' })} />);
    expect(text()).toContain('Rejected');
    expect(text()).toContain('Rejection ReasonNot a charity');
  });

  it('never makes a link of a stored link that is not a web link (javascript:, data:), on any card', () => {
    for (const stored of [
      'javascript://example.com/%0Aalert(1)',
      'data://text/html,x.com',
      'JAVASCRIPT:alert(1).com',
    ]) {
      for (const admin of [false, true]) {
        mount.render(<DonationCard link={link({ link: stored })} admin={admin} />);
        expect(mount.host().querySelector('a'), stored).toBeNull();
        expect(mount.host().querySelector('[href]'), stored).toBeNull();
        expect(text()).toContain(stored);
      }
    }
    mount.render(<DonationCard link={link({ link: 'http://redcross.org/give' })} />);
    expect(mount.host().querySelector('a')!.getAttribute('href')).toBe('http://redcross.org/give');
  });

  it('adds what only an admin sees', () => {
    mount.render(<DonationCard link={link({ publiclyVisible: false, adminCategory: 'Health' })} admin />);
    for (const label of [
      'Link ID',
      'Full Link',
      'Username',
      'Sender ID',
      'Created On',
      'Publicly Visible',
      'Admin Category',
      'Admin Rejection Reason',
      'Raw data',
    ])
      expect(text()).toContain(label);
    expect(text()).toContain('giver');
    expect(text()).toContain('Publicly VisibleNo');
  });
});
