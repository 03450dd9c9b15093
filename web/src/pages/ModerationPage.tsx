import { DecisionsList } from '../features/moderation/components/DecisionsList';
import { Link } from '../lib/router';
import '../features/moderation/moderation.css';

/** /moderation (signed in): the decisions on one's own content, and their appeals (docs/product.md#moderation-screens). */
export default function ModerationPage() {
  return (
    <section className="page stack moderation" aria-labelledby="moderation-title">
      <h1 id="moderation-title">Moderation decisions</h1>
      <p className="muted">
        Decisions moderators made about your content, with their reasons. You can appeal each decision once, within 14
        days. <Link to="/moderation-log">Public moderation log</Link>
      </p>
      <DecisionsList />
    </section>
  );
}
