import { useState, type FormEvent } from 'react';
import { GENERIC_ERROR_TEXT } from '../../../../../common/errors';
import { Field } from '../../../components/ui/Field';
import { Popup } from '../../../components/ui/Popup';
import { fieldErrorsOf } from '../../../lib/api';
import { setNickname as sendNickname } from '../api/nickname';
import { signedIn } from '../lib/signed-in';

export function NicknamePopup() {
  const [nickname, setNickname] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setError(undefined);
    try {
      const { url } = await sendNickname({
        nickname,
        currentPath: window.location.pathname + window.location.search,
      });
      signedIn(url || '/');
    } catch (err) {
      setError(fieldErrorsOf(err)?.[0]?.errorText ?? GENERIC_ERROR_TEXT);
      setSending(false);
    }
  };

  return (
    <Popup title="Choose a nickname">
      <form className="stack" onSubmit={submit} noValidate>
        <p className="muted">This is the name other people see on your pictures and messages.</p>
        <Field
          label="Nickname"
          name="nickname"
          value={nickname}
          onChange={(e) => setNickname(e.target.value)}
          error={error}
          required
        />
        <button type="submit" className="button button--primary" disabled={sending || nickname.trim() === ''}>
          Save
        </button>
      </form>
    </Popup>
  );
}
