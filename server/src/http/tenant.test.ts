import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { isCashTenant, publicOrigin } from './tenant';

const ctx = { config: loadConfig({ PORT: '3000', PUBLIC_URL: 'https://Flex.example' }) };
const req = (host?: string) => ({ host: host ?? '' });

describe('isCashTenant', () => {
  it('counts the dev hosts on port 3000 and the public site as cash tenants, whatever the case', () => {
    expect(isCashTenant(req('localhost:3000'), ctx)).toBe(true);
    expect(isCashTenant(req('127.0.0.1:3000'), ctx)).toBe(true);
    expect(isCashTenant(req('FLEX.example'), ctx)).toBe(true);
  });

  it('treats every other host, another port, or no Host at all as a charity tenant', () => {
    expect(isCashTenant(req('green.example'), ctx)).toBe(false);
    expect(isCashTenant(req('localhost:3001'), ctx)).toBe(false);
    expect(isCashTenant(req('localhost'), ctx)).toBe(false);
    expect(isCashTenant(req(), ctx)).toBe(false);
  });

  it('follows CASH_HOSTS when it is set', () => {
    const custom = { config: loadConfig({ CASH_HOSTS: 'pay.example, Other.example:8443' }) };
    expect(isCashTenant(req('other.example:8443'), custom)).toBe(true);
    expect(isCashTenant(req('localhost:3000'), custom)).toBe(false);
  });
});

describe('publicOrigin', () => {
  it('prefers PUBLIC_URL, else the origin the request came to', () => {
    expect(publicOrigin({ protocol: 'http', host: 'localhost:3000' }, ctx)).toBe('https://Flex.example');
    const noPublic = { config: loadConfig({ PORT: '3000', CHARITY_HOSTS: 'wall.example' }) };
    expect(publicOrigin({ protocol: 'https', host: 'wall.example' }, noPublic)).toBe('https://wall.example');
  });
});

describe('publicOrigin without PUBLIC_URL', () => {
  it('never answers a host that is not configured: it falls back to the first cash host', () => {
    const config = { config: loadConfig({ PORT: '3000', CHARITY_HOSTS: 'green.example' }) };
    expect(publicOrigin({ protocol: 'http', host: 'evil.example' }, config)).toBe('http://localhost:3000');
    expect(publicOrigin({ protocol: 'https', host: 'GREEN.example' }, config)).toBe('https://green.example');
    expect(publicOrigin({ protocol: 'http', host: '127.0.0.1:3000' }, config)).toBe('http://127.0.0.1:3000');
  });
});

describe('publicOrigin on a charity tenant (issue 22 item 14)', () => {
  const dev = { config: loadConfig({ PORT: '3000' }) };
  it("answers a name under localhost on a cash host's port: it can only lead to the reader's own machine", () => {
    expect(publicOrigin({ protocol: 'http', host: 'green.localhost:3000' }, dev)).toBe('http://green.localhost:3000');
    expect(publicOrigin({ protocol: 'http', host: 'a.b.localhost:3000' }, dev)).toBe('http://a.b.localhost:3000');
  });

  it('answers no other loopback-looking host', () => {
    for (const host of [
      'green.localhost:3001',
      'green.localhost',
      'localhost.evil.example:3000',
      '-x.localhost:3000',
    ]) {
      expect(publicOrigin({ protocol: 'http', host }, dev), host).toBe('http://localhost:3000');
    }
  });

  it('prefers a known charity host to PUBLIC_URL, which stays the link of cash hosts and unknown ones', () => {
    const config = {
      config: loadConfig({ PORT: '3000', PUBLIC_URL: 'https://wall.example', CHARITY_HOSTS: 'green.example' }),
    };
    expect(publicOrigin({ protocol: 'https', host: 'green.example' }, config)).toBe('https://green.example');
    expect(publicOrigin({ protocol: 'http', host: 'green.localhost:3000' }, config)).toBe(
      'http://green.localhost:3000',
    );
    expect(publicOrigin({ protocol: 'http', host: 'localhost:3000' }, config)).toBe('https://wall.example');
    expect(publicOrigin({ protocol: 'http', host: 'evil.example' }, config)).toBe('https://wall.example');
  });
});
