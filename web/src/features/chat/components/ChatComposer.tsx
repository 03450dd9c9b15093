import { useState } from 'react';
import { chatCost } from '../../../../../common/writing';
import { formatPrice } from '../../../../../common/money';
import { WritingInput } from '../../../components/ui/WritingInput';
import { ApiError, fieldErrorsOf } from '../../../lib/api';
import { openPopup } from '../../../lib/popups';
import { useLoggedIn } from '../../../lib/session';
import { useWriter } from '../../items/api/writer';
import { useProfile } from '../../users/api/profile';
import { useSendMessage, useUnitPrice } from '../api/chat';
import { useFlash } from '../../../hooks/useFlash';
import { EmojiPicker } from './EmojiPicker';

/**
 * The input under the room: the writing rules as one types, the live cost on the send arrow (flashing when the
 * price moves), emojis for signed-in users. A visitor's send opens the sign-in popup; a risen price (409) updates
 * the price and leaves the text for a resend; a short balance (402) has already opened the top-up popup.
 */
export function ChatComposer() {
  const loggedIn = useLoggedIn();
  const writer = useWriter();
  const { data: unitPrice } = useUnitPrice();
  const { data: profile } = useProfile();
  const send = useSendMessage();
  const [text, setText] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const cost = unitPrice === undefined ? undefined : chatCost(text, unitPrice);
  const flash = useFlash(unitPrice);

  const submit = async () => {
    if (!loggedIn) return openPopup({ kind: 'signIn' });
    if (text.trim() === '' || cost === undefined || send.isPending) return;
    setNotice(null);
    try {
      await send.run({ message: text, sendAmount: cost, balance: profile?.balance });
      setText('');
    } catch (err) {
      // A risen price is on the send arrow already (useSendMessage); a short balance opened the top-up popup.
      if (err instanceof ApiError && err.status === 409) {
        setNotice('The price went up while you typed: check it and send again.');
      } else if (err instanceof ApiError && err.status === 401) {
        openPopup({ kind: 'signIn' });
      } else if (!(err instanceof ApiError && err.status === 402)) {
        setNotice(fieldErrorsOf(err)?.[0]?.errorText ?? 'The message was not sent. Please try again.');
        console.warn('chat send failed', err);
      }
    }
  };

  return (
    <div className="chat-composer">
      {notice && (
        <p className="chat-composer__notice" role="alert">
          {notice}
        </p>
      )}
      <WritingInput
        value={text}
        onChange={setText}
        writer={writer}
        onSubmit={() => void submit()}
        label="Message"
        placeholder={loggedIn ? 'Write a message' : 'Sign in to write'}
      >
        {loggedIn && <EmojiPicker onPick={(emoji) => setText((t) => t + emoji)} />}
        <button
          type="button"
          className="chat-composer__send"
          aria-label={cost === undefined ? 'Send' : `Send for ${formatPrice(cost)}`}
          disabled={send.isPending || (loggedIn && text.trim() === '')}
          onClick={() => void submit()}
        >
          <span
            className={`chat-composer__cost${flash ? ` chat-composer__cost--${flash}` : ''}`}
            data-testid="chat-cost"
          >
            {cost === undefined ? '…' : formatPrice(cost)}
          </span>
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M3 20l18-8L3 4v6l12 2-12 2z" fill="currentColor" />
          </svg>
        </button>
      </WritingInput>
    </div>
  );
}
