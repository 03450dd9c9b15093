import { itemName } from '../../../../../common/items';
import { formatPrice } from '../../../../../common/money';
import { ItemIcon } from '../../../components/ui/ItemIcon';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { useReactions } from '../api/comments';

/** Who reacted to a comment, with what and for how much, newest first (GET /api/picture/comment-reactions). */
export function ReactionsList({ commentId }: { commentId: number }) {
  const { data, isPending, isError } = useReactions(commentId);
  if (isPending) return <p className="muted">Loading...</p>;
  // docs/product.md#comments: a failed load is only logged.
  if (isError) return null;
  if (data.length === 0) return <p className="muted">No reactions yet.</p>;
  return (
    <ul className="reactions-list" aria-label="Reactions">
      {data.map((r, i) => (
        <li key={i}>
          <ItemIcon itemType={r.reactionType} size={22} label={itemName(r.reactionType)} />
          <span className="reactions-list__user">{r.username}</span>
          <span className="reactions-list__price">{formatPrice(r.price)}</span>
          <span className="muted">
            <RelativeTime at={r.reactedOn} />
          </span>
        </li>
      ))}
    </ul>
  );
}
