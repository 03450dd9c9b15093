import { useState } from 'react';
import { COMMENT_PRICE } from '../../../../../common/comments';
import { formatPrice } from '../../../../../common/money';
import { WritingInput } from '../../../components/ui/WritingInput';
import { fieldErrorsOf } from '../../../lib/api';
import { openPopup } from '../../../lib/popups';
import { useLoggedIn } from '../../../lib/session';
import { useWriter } from '../../items/api/writer';
import { useProfile } from '../../users/api/profile';
import { usePostComment } from '../api/comments';

/**
 * The write box of a comment or a reply (docs/product.md#writing): only owned characters can be typed (the
 * picture's author writes with all letters on it), the cost shows beside it, Enter or the button sends. A visitor
 * is asked to sign in instead.
 */
export function CommentForm({
  pictureId,
  isAuthor,
  responseTo,
  onSent,
}: {
  pictureId: number;
  isAuthor: boolean;
  responseTo?: number;
  onSent?: (commentId: number) => void;
}) {
  const loggedIn = useLoggedIn();
  const writer = useWriter(isAuthor);
  const { data: profile } = useProfile();
  const post = usePostComment();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const label = responseTo ? 'Write a reply' : 'Write a comment';

  if (!loggedIn) {
    return (
      <button type="button" className="button comment-form__signin" onClick={() => openPopup({ kind: 'signIn' })}>
        {responseTo ? 'Sign in to reply' : 'Sign in to comment'}
      </button>
    );
  }

  const send = async () => {
    if (text.trim() === '' || post.isPending) return;
    setError(undefined);
    try {
      const made = await post.run({
        pictureId,
        comment: text,
        responseTo: responseTo ?? null,
        balance: profile?.balance ?? 0,
      });
      setText('');
      onSent?.(made.id);
    } catch (err) {
      // A 402 opened the top-up popup already; a 400 carries the writing rule's hint; the rest is only logged.
      const hint = fieldErrorsOf(err)?.[0]?.errorText;
      if (hint) setError(hint);
      else console.warn('comment failed', err);
    }
  };

  return (
    <form
      className="comment-form"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <WritingInput
        value={text}
        onChange={(v) => {
          setText(v);
          setError(undefined);
        }}
        writer={writer}
        onSubmit={() => void send()}
        label={label}
        placeholder={responseTo ? 'Reply…' : 'Add a comment…'}
        disabled={post.isPending}
      >
        <span className="comment-form__cost" aria-label={`Costs ${formatPrice(COMMENT_PRICE)}`}>
          {formatPrice(COMMENT_PRICE)}
        </span>
        <button type="submit" className="button button--primary" disabled={post.isPending || text.trim() === ''}>
          {responseTo ? 'Reply' : 'Send'}
        </button>
      </WritingInput>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
