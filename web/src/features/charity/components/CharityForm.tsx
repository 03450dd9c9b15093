import { useId, useState, type Ref } from 'react';
import { Field } from '../../../components/ui/Field';
import { useDecide, useOptions } from '../api/admin';
import { amountToCents, linkIdOf } from '../lib/form';
import { OptionInput } from './OptionInput';

/**
 * The admin charity form (docs/product.md#admin): the link's id, what the admin says of
 * the charity, the amount to credit (dollars, sent in cents) or the reason to reject, and the server's answer as it
 * came. Validation is not shown: the server's answer says what was wrong. Each link starts clean: a decision the
 * server took empties what was said of that link (a card of the list remounts the form, CharityAdmin.tsx), so the
 * next link never inherits the last one's charity.
 */
export function CharityForm({
  linkId,
  onLinkId,
  linkIdRef,
}: {
  linkId: string;
  onLinkId: (id: string) => void;
  /** The Charity Link ID input, focused when a card of the list is picked. */
  linkIdRef?: Ref<HTMLInputElement>;
}) {
  const names = useOptions('charityNames');
  const categories = useOptions('charity-categories');
  const reasons = useOptions('charity-rejection-reasons');
  const decide = useDecide();
  const [charityName, setCharityName] = useState('');
  const [adminCategory, setAdminCategory] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [isPubliclyVisible, setPubliclyVisible] = useState(true);
  const [response, setResponse] = useState('');
  const clear = () => {
    setCharityName('');
    setAdminCategory('');
    setAmount('');
    setReason('');
    setPubliclyVisible(true);
  };
  const visibleId = useId();
  const responseId = useId();

  const run = async (kind: 'approve' | 'reject') => {
    const common = {
      charityLinkId: linkIdOf(linkId),
      charityName: charityName.trim(),
      adminCategory: adminCategory.trim(),
      isPubliclyVisible,
    };
    try {
      const { text, decided } = await decide.run(
        kind === 'approve'
          ? { kind, body: { ...common, amount: amountToCents(amount) } }
          : { kind, body: { ...common, reason: reason.trim() } },
      );
      setResponse(text);
      if (decided) clear();
    } catch (err) {
      setResponse(`Error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return (
    <form className="stack charity-form" onSubmit={(e) => e.preventDefault()} aria-label="Charity Form">
      <Field
        label="Charity Link ID"
        ref={linkIdRef}
        name="charityLinkId"
        inputMode="numeric"
        autoComplete="off"
        value={linkId}
        onChange={(e) => onLinkId(e.target.value)}
      />
      <OptionInput label="Charity Name" value={charityName} options={names} onChange={setCharityName} />
      <OptionInput label="Admin Category" value={adminCategory} options={categories} onChange={setAdminCategory} />
      <Field
        label="Amount"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <OptionInput label="Reason" value={reason} options={reasons} onChange={setReason} />
      <div className="charity-form__check">
        <input
          id={visibleId}
          type="checkbox"
          checked={isPubliclyVisible}
          onChange={(e) => setPubliclyVisible(e.target.checked)}
        />
        <label htmlFor={visibleId}>Publicly Visible</label>
      </div>
      <div className="row">
        <button
          type="button"
          className="button button--primary"
          disabled={decide.isPending}
          onClick={() => void run('approve')}
        >
          Approve
        </button>
        <button type="button" className="button" disabled={decide.isPending} onClick={() => void run('reject')}>
          Reject
        </button>
      </div>
      <div className="field">
        <label htmlFor={responseId}>Response</label>
        <textarea id={responseId} className="charity-form__response" readOnly rows={5} value={response} />
      </div>
    </form>
  );
}
