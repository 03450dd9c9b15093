import { describe, expect, it } from 'vitest';
import {
  charityLinkHref,
  charityLinkKey,
  charityLinkProblem,
  CHARITY_LINK_MAX_LENGTH,
  CHARITY_LINK_PATTERN,
  CHARITY_LINK_TEXT,
  donationStatus,
  hostnameOf,
  isCharityLink,
  withScheme,
} from './charity';

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

describe('a donation link is a web link', () => {
  const notWeb = [
    'javascript://example.com/%0Aalert(1)',
    'JavaScript:alert(1)//x.com',
    'data://text/html,x.com',
    'data:text/html;base64,PHNjcmlwdD4=.com',
    'vbscript:msgbox(1).com',
    'mailto:give@redcross.org',
    'ftp://files.example.org/receipt',
    'file:///etc/passwd.txt',
  ];

  it('refuses every scheme but http and https, in the same words on both sides', () => {
    for (const link of notWeb) {
      expect(isCharityLink(link), link).toBe(false);
      expect(charityLinkProblem(link), link).toBe(CHARITY_LINK_TEXT.notWeb);
      expect(CHARITY_LINK_PATTERN.test(link), `the schema's pattern: ${link}`).toBe(false);
    }
  });

  it('takes http, https (any case), no scheme, and a port', () => {
    for (const link of ['http://a.org/x', 'HTTPS://A.ORG', 'give.example.org/1', 'example.org:8080/give']) {
      expect(isCharityLink(link), link).toBe(true);
      expect(CHARITY_LINK_PATTERN.test(link), link).toBe(true);
    }
    expect(charityLinkProblem('')).toBe(CHARITY_LINK_TEXT.empty);
    expect(charityLinkProblem(`a.com/${'x'.repeat(CHARITY_LINK_MAX_LENGTH)}`)).toBe(CHARITY_LINK_TEXT.tooLong);
    expect(charityLinkProblem('https://javascript:1.ab')).toBe(CHARITY_LINK_TEXT.shape);
  });

  it('gives a card an href only for a web link, whatever was stored before the rule', () => {
    expect(charityLinkHref('redcross.org/give')).toBe('https://redcross.org/give');
    expect(charityLinkHref('http://redcross.org')).toBe('http://redcross.org');
    for (const link of [...notWeb, 'javascript:alert(1)', ' https://x.org', 'nodot']) {
      expect(charityLinkHref(link), link).toBeUndefined();
    }
  });
});

describe('one donation, one link: the normal form', () => {
  const same = (a: string, b: string) => expect(charityLinkKey(a), `${a} = ${b}`).toBe(charityLinkKey(b));

  it('is the same link whatever the scheme, case of scheme and host, www., port, fragment or trailing slash', () => {
    const key = charityLinkKey('https://give.example.org/donation/42');
    expect(key).toBe('give.example.org/donation/42');
    for (const variant of [
      'http://give.example.org/donation/42',
      'HTTPS://GIVE.Example.ORG/donation/42',
      'give.example.org/donation/42',
      'https://www.give.example.org/donation/42',
      'https://give.example.org./donation/42',
      'https://give.example.org:443/donation/42',
      'http://give.example.org:80/donation/42',
      'https://give.example.org/donation/42/',
      'https://give.example.org//donation//42//',
      'https://give.example.org/donation/42#thanks',
      'https://someone@give.example.org/donation/42',
      'https://give.example.org/%64onation/42',
      ' https://give.example.org/donation/42 ',
    ]) {
      expect(charityLinkKey(variant), variant).toBe(key);
    }
  });

  it('sorts the query, drops empty parameters and utm_ trackers, and writes escapes in capitals', () => {
    same('x.org/d?b=2&a=1', 'x.org/d?a=1&b=2&');
    same('x.org/d?a=1&utm_source=mail&UTM_medium=x', 'x.org/d?a=1');
    same('x.org/d?q=%2f', 'x.org/d?q=%2F');
    same('x.org/?', 'x.org');
  });

  it('keeps apart what can be another donation: the path, its case, the query, another port or host', () => {
    const key = charityLinkKey('https://give.example.org/donation/42');
    for (const other of [
      'https://give.example.org/donation/43',
      'https://give.example.org/Donation/42',
      'https://give.example.org/donation/42?id=2',
      'https://give.example.org:8443/donation/42',
      'https://example.org/donation/42',
    ]) {
      expect(charityLinkKey(other), other).not.toBe(key);
    }
    expect(charityLinkKey('javascript://x.org/alert')).toBeUndefined();
  });
});
