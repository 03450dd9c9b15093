import { useId, useMemo, useState } from 'react';
import { itemName } from '../../../../../common/items';
import { ItemIcon } from '../../../components/ui/ItemIcon';
import { Link } from '../../../lib/router';
import { fieldErrorsOf } from '../../../lib/api';
import { useItemDetails } from '../../items/api/details';
import { useProfile } from '../../users/api/profile';
import { useReactToComment } from '../api/comments';
import { DEFAULT_REACTION_TEXT, cleanAmountInput, parseReactionAmount } from '../lib/amount';

/**
 * The react form (docs/product.md#comments): one of the emojis the user owns, and an amount in decimal dollars (15¢ by
 * default, at least 1¢). Sending pays the amount; a 402 opens the top-up popup.
 */
export function ReactForm({ commentId, onDone }: { commentId: number; onDone: () => void }) {
  const { data: items } = useItemDetails();
  const { data: profile } = useProfile();
  const react = useReactToComment();
  const owned = useMemo(
    () => (items ?? []).filter((i) => i.rarity > 1 && i.user.quantity > 0).map((i) => i.itemType),
    [items],
  );
  const [choice, setChoice] = useState<string | undefined>();
  const [amount, setAmount] = useState(DEFAULT_REACTION_TEXT);
  const [error, setError] = useState<string | undefined>();
  const amountId = useId();
  const picked = choice ?? owned[0];

  if (items && owned.length === 0) {
    return (
      <div className="react-form">
        <p className="muted">
          You own no emoji yet: open <Link to="/lootboxes">lootboxes</Link> or buy one in the{' '}
          <Link to="/store">store</Link>.
        </p>
      </div>
    );
  }

  const send = async () => {
    const parsed = parseReactionAmount(amount);
    if ('error' in parsed) return setError(parsed.error);
    if (!picked) return setError('Pick an emoji.');
    setError(undefined);
    try {
      await react.run({
        commentId,
        reactionType: picked,
        price: parsed.cents,
        balance: profile?.balance ?? 0,
      });
      onDone();
    } catch (err) {
      const text = fieldErrorsOf(err)?.[0]?.errorText;
      if (text) setError(text);
      else console.warn('reaction failed', err);
    }
  };

  return (
    <form
      className="react-form"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div className="react-form__emojis" role="radiogroup" aria-label="Your emojis">
        {owned.map((itemType) => (
          <button
            key={itemType}
            type="button"
            role="radio"
            aria-checked={picked === itemType}
            className={`react-form__emoji${picked === itemType ? ' react-form__emoji--picked' : ''}`}
            onClick={() => setChoice(itemType)}
            title={itemName(itemType)}
          >
            <ItemIcon itemType={itemType} size={30} label={itemName(itemType)} />
          </button>
        ))}
      </div>
      <div className="react-form__send">
        <label htmlFor={amountId}>Amount $</label>
        <input
          id={amountId}
          inputMode="decimal"
          value={amount}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setAmount(cleanAmountInput(e.target.value));
            setError(undefined);
          }}
        />
        <button type="submit" className="button button--primary" disabled={react.isPending}>
          React
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
