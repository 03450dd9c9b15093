import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp } from '../../test/harness';
import { sameSitePath } from './rules';

/** `currentPath` comes back as the page to open after signing up: it must never lead off the site. */
const offSite = [
  '//evil.com',
  '///evil.com',
  '/\\evil.com',
  '/\\/evil.com',
  '/.//evil.com',
  '/..//evil.com',
  '/a/..//evil.com',
  '/%2e//evil.com',
  '/%2E%2E//evil.com',
  '/%2F%2Fevil.com',
  '/%2f/evil.com',
  '/%5C%5Cevil.com',
  '/\t/evil.com',
  '/\n/evil.com',
  '/\r/evil.com',
  ' /evil',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'https://evil.com/',
  'http:evil.com',
  'evil.com',
  'image/1',
  '',
];

describe('sameSitePath', () => {
  it.each(offSite)('turns %j into /', (path) => {
    expect(sameSitePath(path)).toBe('/');
  });

  it('keeps paths of this site, with their query and hash', () => {
    expect(sameSitePath('/image/42')).toBe('/image/42');
    expect(sameSitePath('/profile/ann?tab=items#top')).toBe('/profile/ann?tab=items#top');
    expect(sameSitePath('/trending?next=//elsewhere')).toBe('/trending?next=//elsewhere');
    expect(sameSitePath('/a/../image/7')).toBe('/image/7');
  });
});

describe('the answer of register and set-nickname', () => {
  it('is / for every off-site currentPath', async () => {
    const t = await startTestApp();
    try {
      let n = 0;
      for (const currentPath of offSite) {
        const username = `ssp_${process.pid % 1000}_${++n}`;
        const reg = await t.client().post('/api/auth/register', {
          username,
          password: 'secret123',
          email: 'x@example.test',
          currentPath,
        });
        expect(reg.json(), JSON.stringify(currentPath)).toEqual({ url: '/' });

        // A Google user without a nickname yet, picking one.
        const google = await makeUser(t.ctx);
        await t.ctx.db.execute(sql`UPDATE users SET username = NULL WHERE id = ${google.id}`);
        const browser = await signIn(t, google.id);
        const nick = await browser.post('/api/auth/set-nickname', { nickname: `${username}_g`, currentPath });
        expect(nick.json(), JSON.stringify(currentPath)).toEqual({ url: '/' });
      }
    } finally {
      await t.close();
    }
  });
});
