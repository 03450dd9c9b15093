import { useId, useState } from 'react';
import { MAX_REPORT_DESCRIPTION, REPORT_REASONS, type ReportReason } from '../../../../../common/reports';
import { Popup } from '../../../components/ui/Popup';
import { ApiError } from '../../../lib/api';
import { closePopup } from '../../../lib/popups';
import { useReportMessage } from '../api/report';
import '../reports.css';

const TEXT = {
  sent: 'Thank you. The report was sent to the moderators.',
  already: 'You already reported this message.',
  gone: 'This message no longer exists.',
  alreadyPicture: 'You already reported this picture.',
  gonePicture: 'This picture no longer exists.',
} as const;

const TITLES = { COMMENT: 'Report comment', CHAT: 'Report message', PICTURE: 'Report picture' } as const;

/**
 * The report message popup (docs/product.md#reports): a category and a description, both required
 * before sending. The comments open it for a comment; the chat for a chat message; a picture's page for the picture
 * (`messageId` is then the picture's id).
 */
export function ReportPopup({ type, messageId }: { type: 'COMMENT' | 'CHAT' | 'PICTURE'; messageId: number }) {
  const picture = type === 'PICTURE';
  const report = useReportMessage();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [description, setDescription] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();
  const reasonId = useId();
  const descriptionId = useId();
  const ready = reason !== '' && description.trim() !== '';

  const send = async () => {
    if (!ready || report.isPending) return;
    try {
      await report.run({ messageId, type, reason, description: description.trim() });
      setOutcome({ ok: true, text: TEXT.sent });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409)
        setOutcome({ ok: false, text: picture ? TEXT.alreadyPicture : TEXT.already });
      else if (err instanceof ApiError && err.status === 404)
        setOutcome({ ok: false, text: picture ? TEXT.gonePicture : TEXT.gone });
      // docs/product.md#reports: any other report failure is only logged.
      else console.warn('report failed', err);
    }
  };

  return (
    <Popup title={TITLES[type]}>
      {outcome?.ok ? (
        <div className="stack">
          <p className="form-success" role="status">
            {outcome.text}
          </p>
          <button type="button" className="button button--primary" onClick={closePopup} data-autofocus>
            Done
          </button>
        </div>
      ) : (
        <form
          className="stack report-form"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <div className="field">
            <label htmlFor={reasonId}>Category</label>
            <select
              id={reasonId}
              value={reason}
              required
              onChange={(e) => setReason(e.target.value as ReportReason | '')}
              data-autofocus
            >
              <option value="" disabled>
                Choose a category
              </option>
              {REPORT_REASONS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={descriptionId}>Description</label>
            <textarea
              id={descriptionId}
              value={description}
              required
              rows={4}
              maxLength={MAX_REPORT_DESCRIPTION}
              placeholder={picture ? 'What is wrong with this picture?' : 'What is wrong with this message?'}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          {outcome && (
            <p className="form-error" role="alert">
              {outcome.text}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={!ready || report.isPending}>
            Send report
          </button>
        </form>
      )}
    </Popup>
  );
}
