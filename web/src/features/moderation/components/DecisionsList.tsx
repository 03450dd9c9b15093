import { useState, type FormEvent } from 'react';
import type { UserDecision } from '../../../../../common/api/moderation';
import { MAX_MODERATION_TEXT } from '../../../../../common/moderation';
import { formatMoney } from '../../../../../common/money';
import { formatDateTime } from '../../../../../common/time';
import { TextAreaField } from '../../../components/ui/Field';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { fieldErrorsOf } from '../../../lib/api';
import { useAppeal, useUserDecisions } from '../api/moderation';
import { FORM_TEXT, textError } from '../lib/forms';
import { refusalText, statusOf } from '../lib/errors';
import { actionLabel, APPEAL_LABELS, categoryLabel, contentLabel, suspensionText } from '../lib/labels';

/** The author's decisions (docs/product.md#moderation-screens), each with its appeal or the form to send one. */
export function DecisionsList() {
  const query = useUserDecisions();
  if (query.isPending) return <p className="loading">Loading...</p>;
  if (query.isError) return <LoadFailed text="Failed to load the decisions." onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <p className="muted">No decisions about your content.</p>;
  return (
    <ul className="moderation-list">
      {query.data.map((d) => (
        <DecisionItem key={d.decisionId} decision={d} />
      ))}
    </ul>
  );
}

/** Whether an appeal may still be sent: none yet, and its time not over. */
export const appealable = (d: UserDecision, now = Date.now()): boolean =>
  d.appeal === null && new Date(d.appealUntil).getTime() >= now;

export function DecisionItem({ decision: d }: { decision: UserDecision }) {
  const suspension = suspensionText(d.suspended, d.suspendedUntil);
  return (
    <li className="moderation-item" data-testid="decision">
      <header className="moderation-item__head">
        <span className="admin-report__type">{contentLabel(d.contentType)}</span>
        <strong>{actionLabel(d.action)}</strong>
        <span>{categoryLabel(d.category)}</span>
        <time dateTime={d.decidedOn}>{formatDateTime(d.decidedOn)}</time>
      </header>
      <p>
        <span className="muted">Statement of reasons: </span>
        <span data-testid="decision-reasons">{d.reasons}</span>
      </p>
      {suspension && <p>{suspension}</p>}
      {d.refunded > 0 && <p>Refunded: {formatMoney(d.refunded)}</p>}
      {d.appeal ? (
        <p data-testid="appeal-status">
          <strong>{APPEAL_LABELS[d.appeal.status]}</strong>
          {d.appeal.decidedOn ? ` on ${formatDateTime(d.appeal.decidedOn)}` : ''}
          <span className="muted">. Your appeal: </span>
          {d.appeal.text}
        </p>
      ) : appealable(d) ? (
        <AppealForm decisionId={d.decisionId} until={d.appealUntil} />
      ) : (
        <p className="muted">The time to appeal is over.</p>
      )}
    </li>
  );
}

/** One appeal per decision, with a text (required). */
export function AppealForm({ decisionId, until }: { decisionId: number; until: string }) {
  const send = useAppeal();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [general, setGeneral] = useState<string | undefined>();
  const [sent, setSent] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (send.isPending) return;
    const problem = textError(text, FORM_TEXT.appealRequired);
    setError(problem);
    setGeneral(undefined);
    if (problem) return;
    try {
      await send.run({ decisionId, text: text.trim() });
      setSent(true);
    } catch (err) {
      const status = statusOf(err);
      if (status === 409) return setGeneral(FORM_TEXT.alreadyAppealed);
      const fields = fieldErrorsOf(err);
      if (status === 400 && fields?.length) {
        const onText = fields.find((f) => f.field === 'text');
        if (onText) setError(onText.errorText);
        const other = fields.filter((f) => f.field !== 'text').map((f) => f.errorText);
        return setGeneral(other.length ? other.join(' ') : undefined);
      }
      if (status === 400) return setGeneral(FORM_TEXT.appealClosed);
      setGeneral(refusalText(err));
    }
  };

  if (sent)
    return (
      <p className="form-success" role="status">
        Your appeal was sent. An administrator will decide it.
      </p>
    );
  return (
    <form className="stack" onSubmit={(e) => void submit(e)} aria-label="Appeal" noValidate>
      <TextAreaField
        label={`Appeal (until ${formatDateTime(until)})`}
        rows={3}
        maxLength={MAX_MODERATION_TEXT}
        value={text}
        placeholder="Why should this decision change?"
        error={error}
        onChange={(e) => {
          setText(e.target.value);
          setError(undefined);
        }}
      />
      {general && (
        <p className="form-error" role="alert">
          {general}
        </p>
      )}
      <div>
        <button type="submit" className="button button--primary" disabled={send.isPending}>
          Appeal
        </button>
      </div>
    </form>
  );
}
