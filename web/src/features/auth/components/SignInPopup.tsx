import { useState } from 'react';
import { Popup } from '../../../components/ui/Popup';
import type { SignInTab } from '../../../lib/popups';
import { googleClientId } from '../../../lib/tenant';
import { EasyTab } from './EasyTab';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

const ALL_TABS: { id: SignInTab; label: string }[] = [
  { id: 'easy', label: 'Easy' },
  { id: 'login', label: 'Login' },
  { id: 'register', label: 'Register' },
];

/**
 * The tabs this server can serve: Easy (Google one-tap) only where a Google client id is configured, so the first
 * screen a newcomer meets always works (docs/decisions.md "The sign-in popup opens on a tab that works").
 */
export function signInTabs(clientId: string | undefined = googleClientId) {
  return clientId ? ALL_TABS : ALL_TABS.filter((t) => t.id !== 'easy');
}

export function SignInPopup({ initialTab }: { initialTab?: SignInTab }) {
  const tabs = signInTabs();
  const [tab, setTab] = useState<SignInTab>(tabs.some((t) => t.id === initialTab) ? initialTab! : tabs[0]!.id);
  return (
    <Popup title="Sign in">
      <div className="tabs" role="tablist" aria-label="Sign-in method">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`signin-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`signin-panel-${t.id}`}
            className={tab === t.id ? 'tabs__tab tabs__tab--active' : 'tabs__tab'}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`signin-panel-${tab}`} aria-labelledby={`signin-tab-${tab}`}>
        {tab === 'easy' && googleClientId && <EasyTab clientId={googleClientId} />}
        {tab === 'login' && <LoginForm />}
        {tab === 'register' && <RegisterForm />}
      </div>
    </Popup>
  );
}
