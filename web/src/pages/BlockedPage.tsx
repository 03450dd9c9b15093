import { BlockedList } from '../features/blocks/components/BlockedList';
import '../features/moderation/moderation.css';

/** /blocked (signed in): the users one blocked, each with Unblock (docs/product.md#moderation-screens). */
export default function BlockedPage() {
  return (
    <section className="page stack moderation" aria-labelledby="blocked-title">
      <h1 id="blocked-title">Blocked users</h1>
      <p className="muted">You do not see their comments, replies, chat messages or notifications.</p>
      <BlockedList />
    </section>
  );
}
