import { useEffect, useRef, useState } from 'react';
import type { Comment } from '../../../../../common/api/comments';
import { PIN_PRICE, REVEAL_STEP } from '../../../../../common/comments';
import { itemName } from '../../../../../common/items';
import { formatPrice } from '../../../../../common/money';
import { ItemIcon } from '../../../components/ui/ItemIcon';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { openPopup } from '../../../lib/popups';
import { Link } from '../../../lib/router';
import { useLoggedIn } from '../../../lib/session';
import { useCachedImage } from '../../../lib/image-cache';
import { usePinComment } from '../api/comments';
import { CommentForm } from './CommentForm';
import { ReactForm } from './ReactForm';
import { ReactionsList } from './ReactionsList';

type Panel = 'reply' | 'react' | 'reactions' | undefined;

/**
 * One comment (depth 1) or reply (depth 2): its author, age, text, first two reactions and actions. Only top-level
 * comments offer 'reply' (docs/product.md#comments); only the picture's author sees 'pin', on a top-level comment not yet pinned.
 */
export function CommentItem({
  comment,
  pictureAuthorId,
  myId,
  revealReplies,
  highlighted,
}: {
  comment: Comment;
  pictureAuthorId: number;
  myId: number | undefined;
  /** How many replies to show at first (enough to show an anchored reply). */
  revealReplies?: number;
  highlighted?: number;
}) {
  const loggedIn = useLoggedIn();
  const [panel, setPanel] = useState<Panel>();
  const [shownReplies, setShownReplies] = useState(revealReplies ?? 0);
  // A larger reveal (the anchored reply arrived) shows more, in the render that sees it rather than an effect after.
  const [revealed, setRevealed] = useState(revealReplies);
  if (revealed !== revealReplies) {
    setRevealed(revealReplies);
    setShownReplies((n) => Math.max(n, revealReplies ?? 0));
  }
  const pin = usePinComment();
  const box = useRef<HTMLDivElement>(null);
  const topLevel = comment.responseTo === null;
  const isAuthor = myId === pictureAuthorId;
  const replies = comment.commentResponses as Comment[];

  useEffect(() => {
    if (panel === 'reply') box.current?.querySelector('input')?.focus();
  }, [panel]);

  const toggle = (next: Panel) => {
    if ((next === 'reply' || next === 'react') && !loggedIn) return openPopup({ kind: 'signIn' });
    setPanel((p) => (p === next ? undefined : next));
  };
  const report = () =>
    loggedIn
      ? openPopup({ kind: 'reportMessage', type: 'COMMENT', messageId: comment.id })
      : openPopup({ kind: 'signIn' });
  const blockAuthor = () =>
    loggedIn
      ? openPopup({ kind: 'blockUser', userId: comment.authorId, username: comment.authorName })
      : openPopup({ kind: 'signIn' });
  const pinIt = async () => {
    try {
      await pin.run({ commentId: comment.id, balance: 0 });
    } catch (err) {
      // A 402 opened the top-up popup; anything else is only logged.
      console.warn('pin failed', err);
    }
  };

  const reactions = [comment.firstReaction, comment.secondReaction].filter((r): r is string => r !== null);
  return (
    <li
      id={String(comment.id)}
      className={`comment${topLevel ? '' : ' comment--reply'}${comment.isPinned ? ' comment--pinned' : ''}${
        highlighted === comment.id ? ' comment--anchored' : ''
      }${panel === 'reply' ? ' comment--replying' : ''}`}
      data-testid="comment"
    >
      <Link
        to={`/profile/${comment.authorId}`}
        className="comment__avatar"
        aria-label={comment.authorName}
        tabIndex={-1}
      >
        <Face url={comment.authorProfileUrl} size={topLevel ? 36 : 28} />
      </Link>
      <div className="comment__body">
        <div className="comment__head">
          <Link to={`/profile/${comment.authorId}`} className="comment__author">
            {comment.authorName}
          </Link>
          {comment.authorId === pictureAuthorId && <span className="comment__badge">author</span>}
          <span className="muted comment__time">
            <RelativeTime at={comment.commentedOn} />
          </span>
          {comment.isPinned && <span className="comment__pinned">Pinned</span>}
        </div>
        <p className="comment__text">{comment.comment}</p>
        <div className="comment__actions">
          {reactions.length > 0 && (
            <button
              type="button"
              className="comment__reactions"
              aria-expanded={panel === 'reactions'}
              aria-label={`${comment.reactions.length} reactions: show who reacted`}
              onClick={() => toggle('reactions')}
            >
              {reactions.map((r) => (
                <ItemIcon key={r} itemType={r} size={20} label={itemName(r)} />
              ))}
              <span>{comment.reactions.length}</span>
            </button>
          )}
          <button
            type="button"
            className="link-button"
            aria-expanded={panel === 'react'}
            onClick={() => toggle('react')}
          >
            React
          </button>
          {topLevel && (
            <button
              type="button"
              className="link-button"
              aria-expanded={panel === 'reply'}
              onClick={() => toggle('reply')}
            >
              Reply
            </button>
          )}
          {topLevel && isAuthor && !comment.isPinned && (
            <button type="button" className="link-button" disabled={pin.isPending} onClick={() => void pinIt()}>
              Pin ({formatPrice(PIN_PRICE)})
            </button>
          )}
          <button type="button" className="link-button link-button--quiet" onClick={report}>
            Report
          </button>
          {comment.authorId !== myId && (
            <button
              type="button"
              className="link-button link-button--quiet"
              aria-label={`Block ${comment.authorName}`}
              onClick={blockAuthor}
            >
              Block
            </button>
          )}
        </div>
        {panel === 'react' && <ReactForm commentId={comment.id} onDone={() => setPanel(undefined)} />}
        {panel === 'reactions' && <ReactionsList commentId={comment.id} />}
        {panel === 'reply' && (
          <div ref={box}>
            <CommentForm
              pictureId={comment.pictureId}
              isAuthor={isAuthor}
              responseTo={comment.id}
              onSent={() => {
                setPanel(undefined);
                setShownReplies((n) => Math.max(n, replies.length + 1));
              }}
            />
          </div>
        )}
        {replies.length > 0 && (
          <>
            {shownReplies > 0 && (
              <ul className="comments__list comments__list--replies">
                {replies.slice(0, shownReplies).map((r) => (
                  <CommentItem
                    key={r.id}
                    comment={r}
                    pictureAuthorId={pictureAuthorId}
                    myId={myId}
                    highlighted={highlighted}
                  />
                ))}
              </ul>
            )}
            {shownReplies < replies.length && (
              <button
                type="button"
                className="link-button comments__more"
                onClick={() => setShownReplies((n) => n + REVEAL_STEP)}
              >
                {shownReplies === 0
                  ? `Show ${replies.length === 1 ? '1 reply' : `${replies.length} replies`}`
                  : `Show more replies (${replies.length - shownReplies})`}
              </button>
            )}
          </>
        )}
      </div>
    </li>
  );
}

/** The author's face, from the image cache; the default avatar while it loads or when there is none. */
function Face({ url, size }: { url: string | null; size: number }) {
  return <img className="avatar" src={useCachedImage(url)} width={size} height={size} alt="" />;
}
