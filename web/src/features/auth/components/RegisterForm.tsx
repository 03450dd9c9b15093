import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/Field';
import { formErrors } from '../../../lib/api';
import { register } from '../api/register';
import { signedIn } from '../lib/signed-in';

/** The sign-in popup's Register tab: a new account with a password, confirmed by email. */
export function RegisterForm() {
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
