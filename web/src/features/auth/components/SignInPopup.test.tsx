// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { testRoot } from '../../../lib/test-root';
import { SignInPopup, signInTabs } from './SignInPopup';

const mount = testRoot();
const tabs = () => [...mount.host().querySelectorAll('[role="tab"]')];

describe('the sign-in popup', () => {
  it('without a Google client id, offers Login and Register and opens on Login', () => {
    mount.render(<SignInPopup />);
    expect(tabs().map((t) => t.textContent)).toEqual(['Login', 'Register']);
    expect(tabs()[0]!.getAttribute('aria-selected')).toBe('true');
    expect(mount.host().querySelector('input[name="username"]')).not.toBeNull();
    expect(mount.host().textContent).not.toContain('not set up');
  });

  it('asked for the Easy tab that is not there, opens on Login', () => {
    mount.render(<SignInPopup initialTab="easy" />);
    expect(tabs().find((t) => t.getAttribute('aria-selected') === 'true')?.textContent).toBe('Login');
  });

  it('keeps a tab that exists when asked for it', () => {
    mount.render(<SignInPopup initialTab="register" />);
    expect(tabs().find((t) => t.getAttribute('aria-selected') === 'true')?.textContent).toBe('Register');
  });

  it('with a Google client id, has the three tabs of docs/product.md#accounts, Easy first', () => {
    expect(signInTabs('client.apps.googleusercontent.com').map((t) => t.label)).toEqual(['Easy', 'Login', 'Register']);
    expect(signInTabs(undefined).map((t) => t.label)).toEqual(['Login', 'Register']);
  });
});
