import { useId, useState, type FormEvent } from 'react';
import type { AdminReport } from '../../../../../common/api/admin';
import type { DecideReportAnswer } from '../../../../../common/api/moderation';
import { MAX_MODERATION_TEXT, MODERATION_CATEGORIES } from '../../../../../common/moderation';
import { formErrors } from '../../../lib/api';
import { useDecideReport } from '../api/admin';
import { checkDecision, FORM_TEXT, SUSPEND_CHOICES, type DecideInput } from '../lib/forms';
import { refusalText, statusOf } from '../lib/errors';

const FIELDS = ['action', 'category', 'reasons', 'suspendDays', 'refund'] as const;

/**
 * The decision on a report (docs/product.md#moderation-screens): dismiss or remove, a category, the statement of
 * reasons, an optional suspension of the author and, with a removal, a refund of the spend. It decides every open
 * report of the same content at once.
 */
export function DecideForm({
  report,
  onDone,
  onCancel,
}: {
  report: Pick<AdminReport, 'id' | 'reason'>;
  onDone?: (answer: DecideReportAnswer) => void;
  onCancel?: () => void;
}) {
  const decide = useDecideReport();
  const id = useId();
  const [input, setInput] = useState<DecideInput>({
    reportId: report.id,
    action: '',
    category: MODERATION_CATEGORIES.some((c) => c.value === report.reason)
      ? (report.reason as DecideInput['category'])
      : '',
    reasons: '',
    suspend: 'none',
    refund: false,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | undefined>();
  const set = <K extends keyof DecideInput>(key: K, value: DecideInput[K]) => {
    setInput((old) => ({ ...old, [key]: value }));
    setErrors((old) => ({ ...old, [key]: '' }));
  };

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (decide.isPending) return;
    const checked = checkDecision(input);
    setGeneral(undefined);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    try {
      onDone?.(await decide.run(checked.body));
    } catch (err) {
      const status = statusOf(err);
      if (status === 409) return setGeneral(FORM_TEXT.alreadyDecided);
      if (status === 400) {
        const { byField, general: other } = formErrors(err, FIELDS);
        setErrors(byField);
        return setGeneral(other);
      }
      setGeneral(refusalText(err));
    }
  };

  const error = (field: string) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="field__error" role="alert">
        {errors[field]}
      </p>
    ) : null;
  const describedBy = (field: string) => (errors[field] ? `${id}-${field}-error` : undefined);

  return (
    <form className="stack decide-form" onSubmit={(e) => void send(e)} aria-label="Decide" noValidate>
      <fieldset className="decide-form__choices" aria-describedby={describedBy('action')}>
        <legend>Action</legend>
        {(['dismiss', 'remove'] as const).map((a) => (
          <label key={a} className="decide-form__choice">
            <input
              type="radio"
              name={`${id}-action`}
              value={a}
              checked={input.action === a}
              onChange={() => set('action', a)}
            />
            {a === 'dismiss' ? 'Dismiss' : 'Remove'}
          </label>
        ))}
      </fieldset>
      {error('action')}
      <div className="field">
        <label htmlFor={`${id}-category`}>Category</label>
        <select
          id={`${id}-category`}
          value={input.category}
          aria-invalid={errors.category ? true : undefined}
          aria-describedby={describedBy('category')}
          onChange={(e) => set('category', e.target.value as DecideInput['category'])}
        >
          <option value="" disabled>
            Choose a category
          </option>
          {MODERATION_CATEGORIES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        {error('category')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-reasons`}>Statement of reasons</label>
        <textarea
          id={`${id}-reasons`}
          rows={4}
          maxLength={MAX_MODERATION_TEXT}
          value={input.reasons}
          placeholder="Why this decision: the author reads it."
          aria-invalid={errors.reasons ? true : undefined}
          aria-describedby={describedBy('reasons')}
          onChange={(e) => set('reasons', e.target.value)}
        />
        {error('reasons')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-suspend`}>Suspend the author</label>
        <select
          id={`${id}-suspend`}
          value={input.suspend}
          aria-describedby={describedBy('suspendDays')}
          onChange={(e) => set('suspend', e.target.value as DecideInput['suspend'])}
        >
          {SUSPEND_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        {error('suspendDays')}
      </div>
      {input.action === 'remove' && (
        <label className="decide-form__check">
          <input type="checkbox" checked={input.refund} onChange={(e) => set('refund', e.target.checked)} />
          Refund the spend
        </label>
      )}
      {error('refund')}
      {general && (
        <p className="form-error" role="alert">
          {general}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button button--primary" disabled={decide.isPending}>
          Send decision
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
