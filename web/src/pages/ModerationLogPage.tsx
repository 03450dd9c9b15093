import { ModerationLogList } from '../features/moderation/components/ModerationLogList';
import '../features/moderation/moderation.css';

/** /moderation-log (public): every decision, newest first, without names or content (docs/product.md#moderation-screens). */
export default function ModerationLogPage() {
  return (
    <section className="page stack moderation" aria-labelledby="moderation-log-title">
      <h1 id="moderation-log-title">Moderation log</h1>
      <p className="muted">
        Every decision moderators made on reported content: when, what kind of content, the category, the action and the
        outcome of any appeal. No names and no content are shown.
      </p>
      <ModerationLogList />
    </section>
  );
}
