import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/Field';
import { formErrors } from '../../../lib/api';
import { login } from '../api/login';
import { signedIn } from '../lib/signed-in';

/** The sign-in popup's Login tab: username and password. */
export function LoginForm() {
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
