import { useId, useState, type FormEvent } from 'react';
import type { AdminAppeal } from '../../../../../common/api/moderation';
import { MAX_MODERATION_TEXT } from '../../../../../common/moderation';
import { TextAreaField } from '../../../components/ui/Field';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { formErrors } from '../../../lib/api';
import { useAppeals, useDecideAppeal } from '../api/admin';
import { FORM_TEXT, textError } from '../lib/forms';
import { refusalText, statusOf } from '../lib/errors';
import { actionLabel, categoryLabel, contentLabel } from '../lib/labels';

/** The Appeals tab (docs/product.md#moderation-screens): pending appeals, each upheld or reversed with reasons. */
export function AppealsList() {
  const query = useAppeals();
  if (query.isPending) return <p className="loading">Loading...</p>;
  if (query.isError) return <LoadFailed text="Failed to load the appeals." onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <p className="muted">No appeals waiting.</p>;
  return (
    <ul className="admin-reports">
      {query.data.map((a) => (
        <AppealItem key={a.decisionId} appeal={a} />
      ))}
    </ul>
  );
}

function AppealItem({ appeal }: { appeal: AdminAppeal }) {
  const decide = useDecideAppeal();
  const id = useId();
  const [outcome, setOutcome] = useState<'uphold' | 'reverse' | ''>('');
  const [reasons, setReasons] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | undefined>();

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (decide.isPending) return;
    const next: Record<string, string> = {};
    if (outcome === '') next.outcome = 'Choose uphold or reverse.';
    const text = textError(reasons, FORM_TEXT.reasonsRequired);
    if (text) next.reasons = text;
    setErrors(next);
    setGeneral(undefined);
    if (outcome === '' || text) return;
    try {
      await decide.run({ decisionId: appeal.decisionId, outcome, reasons: reasons.trim() });
    } catch (err) {
      if (statusOf(err) === 409) return setGeneral('This appeal was already decided.');
      if (statusOf(err) === 400) {
        const { byField, general: other } = formErrors(err, ['outcome', 'reasons']);
        setErrors(byField);
        return setGeneral(other);
      }
      setGeneral(refusalText(err));
    }
  };

  return (
    <li className="admin-report" data-testid="appeal">
      <header className="admin-report__header">
        <span className="admin-report__type">{contentLabel(appeal.contentType)}</span>
        <strong>{categoryLabel(appeal.category)}</strong>
        <span>{actionLabel(appeal.action)}</span>
        <RelativeTime at={appeal.appealedOn} />
      </header>
      <p>
        <span className="muted">Statement of reasons: </span>
        {appeal.reasons}
      </p>
      <blockquote className="admin-report__text">{appeal.appealText}</blockquote>
      <p className="muted">
        {contentLabel(appeal.contentType)} {appeal.contentId}
        {appeal.decidedBy ? `, decided by ${appeal.decidedBy.username}` : ''}
      </p>
      <form className="stack decide-form" onSubmit={(e) => void send(e)} aria-label="Decide the appeal" noValidate>
        <fieldset className="decide-form__choices">
          <legend>Outcome</legend>
          {(['uphold', 'reverse'] as const).map((o) => (
            <label key={o} className="decide-form__choice">
              <input
                type="radio"
                name={`${id}-outcome`}
                value={o}
                checked={outcome === o}
                onChange={() => setOutcome(o)}
              />
              {o === 'uphold' ? 'Uphold' : 'Reverse'}
            </label>
          ))}
        </fieldset>
        {errors.outcome && (
          <p className="field__error" role="alert">
            {errors.outcome}
          </p>
        )}
        <TextAreaField
          label="Reasons"
          rows={3}
          maxLength={MAX_MODERATION_TEXT}
          value={reasons}
          error={errors.reasons}
          onChange={(e) => setReasons(e.target.value)}
        />
        {general && (
          <p className="form-error" role="alert">
            {general}
          </p>
        )}
        <div>
          <button type="submit" className="button button--primary" disabled={decide.isPending}>
            Send
          </button>
        </div>
      </form>
    </li>
  );
}
