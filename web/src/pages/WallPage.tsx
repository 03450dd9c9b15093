import { useLocation } from 'react-router';

/** The wall itself (picture cards, lazy batches, swipes) comes with its own issue. */
export default function WallPage() {
  const trending = useLocation().pathname.startsWith('/trending');
  return (
    <section className="page">
      <h1>{trending ? 'Trending wall' : 'Top wall'}</h1>
      <p className="muted">
        {trending ? 'Pictures ranked by recent money.' : 'Pictures ranked by all the money ever put on them.'} The
        pictures arrive with the wall screen.
      </p>
    </section>
  );
}
