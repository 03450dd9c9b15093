import { useEffect, useMemo, useRef, useState } from 'react';
import { REVEAL_STEP } from '../../../../../common/comments';
import type { Comment } from '../../../../../common/api/comments';
import { useProfile } from '../../users/api/profile';
import { useComments } from '../api/comments';
import { countComments, useCommentsLive } from '../lib/cache';
import { CommentForm } from './CommentForm';
import { CommentItem } from './CommentItem';
import '../comments.css';

/** The comment a `#{commentId}` address points at, if any. */
const anchorId = () => {
  const m = /^#(\d{1,15})$/.exec(window.location.hash);
  return m ? Number(m[1]) : undefined;
};

/** How long the anchored comment is kept in view while the page above it settles. */
const SETTLE_MS = 3000;

/**
 * Scrolls to an element and keeps it there while the page settles (the picture above the comments loads after
 * them and pushes them down), until the reader scrolls or SETTLE_MS pass. Answers the cleanup.
 */
function keepInView(id: string): () => void {
  const scroll = () => document.getElementById(id)?.scrollIntoView({ block: 'center' });
  const frame = requestAnimationFrame(scroll);
  const observer = new ResizeObserver(scroll);
  observer.observe(document.body);
  const stop = () => {
    cancelAnimationFrame(frame);
    observer.disconnect();
    clearTimeout(timer);
    for (const e of ['wheel', 'touchstart', 'keydown'] as const) window.removeEventListener(e, stop);
  };
  const timer = setTimeout(stop, SETTLE_MS);
  for (const e of ['wheel', 'touchstart', 'keydown'] as const) window.addEventListener(e, stop, { passive: true });
  return stop;
}

/** Where comment `anchor` is: its place among the top-level comments, and among its parent's replies (-1: none). */
function anchorPlace(comments: readonly Comment[] | undefined, anchor: number | undefined) {
  if (!comments || anchor === undefined) return undefined;
  for (const [i, c] of comments.entries()) {
    if (c.id === anchor) return { top: i, reply: -1 };
    const r = c.commentResponses.findIndex((x) => x.id === anchor);
    if (r >= 0) return { top: i, reply: r };
  }
  return undefined;
}

/**
 * The comments pane below a picture (docs/product.md#wall, #comments): the write box, then the comments in
 * their order, ten more at a time, kept live from the `comment` channel. An address ending in `#{commentId}` opens
 * the page scrolled to that comment (or reply).
 */
export function CommentsPane({ picture }: { picture: { id: number; authorId: number; commentCount: number } }) {
  const { data: comments, isPending, isError } = useComments(picture.id);
  const { data: me } = useProfile();
  useCommentsLive(picture.id);
  const [shown, setShown] = useState(REVEAL_STEP);
  const [anchor] = useState(anchorId);

  // Where the anchored comment is: its place among the top-level comments, and among its parent's replies.
  const target = useMemo(() => anchorPlace(comments, anchor), [comments, anchor]);

  // Once, when the list has arrived: reveal the anchored comment, then scroll to it.
  const scrolled = useRef(false);
  useEffect(() => {
    if (!target || scrolled.current) return;
    scrolled.current = true;
    setShown((n) => Math.max(n, Math.ceil((target.top + 1) / REVEAL_STEP) * REVEAL_STEP));
    stopKeeping.current = keepInView(String(anchor));
  }, [target, anchor]);
  const stopKeeping = useRef<() => void>(undefined);
  useEffect(() => () => stopKeeping.current?.(), []);

  useEffect(() => {
    // docs/product.md#comments: a failed comment fetch is only logged.
    if (isError) console.warn('comments failed to load');
  }, [isError]);

  const count = comments ? countComments(comments) : picture.commentCount;
  const isAuthor = me?.id === picture.authorId;
  return (
    <section className="comments-pane comments" aria-label="Comments" data-testid="comments-pane">
      <h2>Comments{count > 0 ? ` (${count})` : ''}</h2>
      <CommentForm pictureId={picture.id} isAuthor={isAuthor} />
      {isPending && <p className="muted">Loading...</p>}
      {comments && comments.length === 0 && <p className="muted">No comments yet. Be the first.</p>}
      {comments && comments.length > 0 && (
        <ul className="comments__list">
          {comments.slice(0, shown).map((c, i) => (
            <CommentItem
              key={c.id}
              comment={c}
              pictureAuthorId={picture.authorId}
              myId={me?.id}
              highlighted={anchor}
              revealReplies={
                target?.top === i && target.reply >= 0
                  ? Math.ceil((target.reply + 1) / REVEAL_STEP) * REVEAL_STEP
                  : undefined
              }
            />
          ))}
        </ul>
      )}
      {comments && shown < comments.length && (
        <button type="button" className="button comments__more" onClick={() => setShown((n) => n + REVEAL_STEP)}>
          Show more comments ({comments.length - shown})
        </button>
      )}
    </section>
  );
}
