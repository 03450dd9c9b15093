import { describe, expect, it } from 'vitest';
import { donationStatus, hostnameOf, isCharityLink, withScheme, CHARITY_LINK_MAX_LENGTH } from './charity';

describe('donation link rules', () => {
  it('accepts some text, a dot and at least two letters', () => {
    for (const ok of ['gofundme.com/x', 'https://www.redcross.org/donate?id=7', 'a.de'])
      expect(isCharityLink(ok)).toBe(true);
  });

  it('refuses links without a dot and two letters, with spaces, or too long', () => {
    for (const bad of [
      '',
      'nodot',
      'a.b',
      'a.1x',
      '.com',
      'red cross.org',
      'x.co\n',
      `a.com/${'x'.repeat(CHARITY_LINK_MAX_LENGTH)}`,
    ]) {
      expect(isCharityLink(bad), bad).toBe(false);
    }
  });

  it('derives the status from decided and approved', () => {
    expect(donationStatus({ decided: false, approved: false })).toBe('PENDING');
    expect(donationStatus({ decided: true, approved: true })).toBe('APPROVED');
    expect(donationStatus({ decided: true, approved: false })).toBe('REJECTED');
  });

  it('adds https:// only when the scheme is missing, and shows the hostname', () => {
    expect(withScheme('redcross.org/give')).toBe('https://redcross.org/give');
    expect(withScheme('http://redcross.org')).toBe('http://redcross.org');
    expect(hostnameOf('www.redcross.org/give?x=1')).toBe('www.redcross.org');
    expect(hostnameOf('HTTPS://Example.COM/a')).toBe('example.com');
  });
});
