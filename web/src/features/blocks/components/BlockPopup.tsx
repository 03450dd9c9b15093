import { useState } from 'react';
import { Popup } from '../../../components/ui/Popup';
import { ApiError } from '../../../lib/api';
import { closePopup } from '../../../lib/popups';
import { useBlock } from '../api/blocks';

/** Confirms blocking a user (docs/product.md#moderation-screens); opened from a comment, a chat message or a profile. */
export function BlockPopup({ userId, username }: { userId: number; username: string }) {
  const block = useBlock();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();

  const confirm = async () => {
    if (block.isPending) return;
    try {
      await block.run({ userId, username });
      setOutcome({ ok: true, text: `${username} is blocked. You will not see their comments, replies or messages.` });
    } catch (err) {
      const message = err instanceof ApiError ? (err.body as { message?: unknown } | undefined)?.message : undefined;
      setOutcome({
        ok: false,
        text: typeof message === 'string' ? `Error: ${message}` : 'Blocking failed. Try again.',
      });
    }
  };

  return (
    <Popup title={`Block ${username}?`}>
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
        <div className="stack">
          <p>
            You will no longer see their comments, replies, chat messages or notifications, and they cannot reply to or
            react on your comments. You can unblock them from Blocked users.
          </p>
          {outcome && (
            <p className="form-error" role="alert">
              {outcome.text}
            </p>
          )}
          <div className="row">
            <button
              type="button"
              className="button button--primary"
              disabled={block.isPending}
              onClick={() => void confirm()}
              data-autofocus
            >
              Block
            </button>
            <button type="button" className="button" onClick={closePopup}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </Popup>
  );
}
