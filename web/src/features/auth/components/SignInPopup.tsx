import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/Field';
import { Popup } from '../../../components/ui/Popup';
import { formErrors } from '../../../lib/api';
import type { SignInTab } from '../../../lib/popups';
import { googleClientId } from '../../../lib/tenant';
import { login } from '../api/login';
import { register } from '../api/register';
import { signedIn } from '../lib/signedIn';
import { GoogleButton } from './GoogleButton';

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

function EasyTab({ clientId }: { clientId: string }) {
  return (
    <div className="stack">
      <GoogleButton clientId={clientId} />
      <ul className="notes">
        <li>One tap with your Google account: no password to remember.</li>
        <li>We only read your name and email address, and we never post anything for you.</li>
        <li>New here? Your account is created on your first sign-in, and you then choose a nickname.</li>
      </ul>
    </div>
  );
}

function LoginForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<{ byField: Record<string, string>; general?: string }>({ byField: {} });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setErrors({ byField: {} });
    try {
      await login({ username, password });
      signedIn();
    } catch (err) {
      setErrors(formErrors(err, ['username', 'password']));
      setSending(false);
    }
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field
        label="Username"
        name="username"
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        error={errors.byField.username}
        required
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.byField.password}
        required
      />
      {errors.general && (
        <p className="form-error" role="alert">
          {errors.general}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={sending}>
        {sending ? 'Signing in...' : 'Login'}
      </button>
    </form>
  );
}

function RegisterForm() {
  const [form, setForm] = useState({ username: '', email: '', password: '', confirm: '' });
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<{ byField: Record<string, string>; general?: string }>({ byField: {} });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (form.password !== form.confirm) {
      setErrors({ byField: { confirm: 'Passwords do not match.' } });
      return;
    }
    setSending(true);
    setErrors({ byField: {} });
    try {
      const { url } = await register({
        username: form.username,
        password: form.password,
        email: form.email,
        currentPath: window.location.pathname + window.location.search,
      });
      signedIn(url || '/');
    } catch (err) {
      setErrors(formErrors(err, ['username', 'email', 'password']));
      setSending(false);
    }
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field
        label="Username"
        name="username"
        autoComplete="username"
        value={form.username}
        onChange={set('username')}
        error={errors.byField.username}
        required
      />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={form.email}
        onChange={set('email')}
        error={errors.byField.email}
        required
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={set('password')}
        error={errors.byField.password}
        required
      />
      <Field
        label="Confirm password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        value={form.confirm}
        onChange={set('confirm')}
        error={errors.byField.confirm}
        required
      />
      {errors.general && (
        <p className="form-error" role="alert">
          {errors.general}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={sending}>
        {sending ? 'Registering...' : 'Register'}
      </button>
    </form>
  );
}
