import { useEffect, useState, type FormEvent } from 'react';
import {
  CHARITY_ERROR_MS,
  CHARITY_LINK_MAX_LENGTH,
  CHARITY_LINK_TEXT,
  charityLinkProblem,
} from '../../../../../common/charity';
import { GENERIC_ERROR_TEXT } from '../../../../../common/errors';
import { formatMoney } from '../../../../../common/money';
import { Field } from '../../../components/ui/Field';
import { Popup } from '../../../components/ui/Popup';
import { fieldErrorsOf } from '../../../lib/api';
import { Link } from '../../../lib/router';
import { useProfile } from '../../users/api/profile';
import { useSendCharityLink } from '../api/send';

/** Shown when the typed link does not have the shape docs/product.md#charity gives: the words the server answers such a link with. */
export const BAD_LINK_TEXT = CHARITY_LINK_TEXT.shape;

/**
 * The charity link popup (docs/product.md#popups): where a cash tenant adds money, a charity tenant donates. The user
 * quotes their badge code with the donation, then sends its link; an admin credits the amount once approved. An error
 * shows for 5 s with the input locked, then clears (docs/product.md#charity).
 */
export function CharityLinkPopup({ missing }: { missing?: number }) {
  const { data: profile } = useProfile();
  const send = useSendCharityLink();
  const [link, setLink] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState(false);

  useEffect(() => {
    if (!error) return;
    const t = setTimeout(() => setError(undefined), CHARITY_ERROR_MS);
    return () => clearTimeout(t);
  }, [error]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (error || send.isPending) return;
    const typed = link.trim();
    // The server's rule and words (common/charity.ts): a web link (http or https) of the shape docs/product.md#charity gives.
    const problem = charityLinkProblem(typed);
    if (problem) {
      setError(problem);
      return;
    }
    try {
      await send.run(typed);
      setSent(true);
    } catch (err) {
      // docs/product.md#charity: the first errorText, else the generic text.
      setError(fieldErrorsOf(err)?.[0]?.errorText ?? GENERIC_ERROR_TEXT);
    }
  };

  return (
    <Popup title="Charity link">
      <div className="stack charity-popup">
        {missing ? <p className="shortfall">You need {formatMoney(missing)} more for this.</p> : null}
        <p>
          Card top-up is not offered here. Donate to a charity and send us the donation link: once an admin approves it,
          the amount is added to your balance.
        </p>
        <div className="charity-popup__badge">
          <span>Quote your badge code with the donation:</span>
          <strong data-testid="badge-code">{profile?.badge ?? '…'}</strong>
        </div>
        {sent ? (
          <p className="form-success" role="status">
            Thank you! Your link was sent. It shows as Pending until an admin decides.
          </p>
        ) : (
          <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
            <Field
              label="Donation link"
              name="link"
              type="text"
              inputMode="url"
              autoComplete="off"
              placeholder="charity.org/receipt/123"
              maxLength={CHARITY_LINK_MAX_LENGTH}
              data-autofocus
              value={link}
              readOnly={error !== undefined}
              aria-disabled={error !== undefined}
              onChange={(e) => setLink(e.target.value)}
              error={error}
            />
            <button
              type="submit"
              className="button button--primary"
              disabled={error !== undefined || send.isPending || link.trim() === ''}
            >
              {send.isPending ? 'Sending...' : 'Send link'}
            </button>
          </form>
        )}
        <nav className="charity-popup__links" aria-label="Donation lists">
          <Link to="/my-donations">My donation links</Link>
          <Link to="/public-donations">All donation links</Link>
        </nav>
      </div>
    </Popup>
  );
}
