/** A screen that a later issue builds; the route exists so links and the shell already work. */
export function Placeholder({ title }: { title: string }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <p className="muted">This screen is coming soon.</p>
    </section>
  );
}
