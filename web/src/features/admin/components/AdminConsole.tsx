import { useState, type ReactNode } from 'react';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { openPopup } from '../../../lib/popups';
import { Link } from '../../../lib/router';
import { useLoggedIn } from '../../../lib/session';
import { useAdminCheck } from '../api/admin';

export interface ConsoleTab {
  id: string;
  label: string;
  panel: ReactNode;
}

/**
 * docs/product.md#admin: 'Loading' / 'Please wait...' while the admin check runs, then 'Admin Console' with its
 * tabs. A refused check says so plainly, with a way home (docs/decisions.md "The admin console refuses plainly").
 */
export function AdminConsole({ tabs }: { tabs: readonly ConsoleTab[] }) {
  const { check, retry } = useAdminCheck();
  const [tab, setTab] = useState(tabs[0]!.id);
  if (check === 'checking') {
    return (
      <section className="page admin" aria-busy="true">
        <h1>Loading</h1>
        <p className="muted">Please wait...</p>
      </section>
    );
  }
  if (check === 'refused') return <AdminsOnly />;
  if (check === 'failed') {
    return (
      <section className="page admin stack">
        <h1>Admin Console</h1>
        <LoadFailed text="The console could not check who you are." onRetry={retry} />
      </section>
    );
  }
  const current = tabs.find((t) => t.id === tab) ?? tabs[0]!;
  return (
    <section className="page admin" aria-labelledby="admin-title">
      <h1 id="admin-title">Admin Console</h1>
      <div className="tabs admin__tabs" role="tablist" aria-label="Admin tools">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`admin-tab-${t.id}`}
            aria-selected={t.id === current.id}
            aria-controls={`admin-panel-${t.id}`}
            className={t.id === current.id ? 'tabs__tab tabs__tab--active' : 'tabs__tab'}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`admin-panel-${current.id}`} aria-labelledby={`admin-tab-${current.id}`}>
        {current.panel}
      </div>
    </section>
  );
}

/** Everyone but an administrator: what the page is, and the way home (a visitor may sign in first). */
function AdminsOnly() {
  const loggedIn = useLoggedIn();
  return (
    <section className="page admin stack" aria-labelledby="admin-title">
      <h1 id="admin-title">Administrators only</h1>
      <p>This page is for administrators.{loggedIn ? '' : ' If you are one, sign in first.'}</p>
      <div className="row">
        <Link className="button button--primary" to="/">
          Back to the wall
        </Link>
        {!loggedIn && (
          <button type="button" className="button" onClick={() => openPopup({ kind: 'signIn' })}>
            Sign in
          </button>
        )}
      </div>
    </section>
  );
}
