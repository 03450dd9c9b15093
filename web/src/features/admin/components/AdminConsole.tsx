import { useState, type ReactNode } from 'react';
import { useIsAdmin } from '../api/admin';

export interface ConsoleTab {
  id: string;
  label: string;
  panel: ReactNode;
}

/**
 * SPEC §2 "Admin console": 'Loading' / 'Please wait...' until the admin check says YES (a refusal stays there,
 * SPEC §6), then 'Admin Console' with its tabs.
 */
export function AdminConsole({ tabs }: { tabs: readonly ConsoleTab[] }) {
  const isAdmin = useIsAdmin();
  const [tab, setTab] = useState(tabs[0]!.id);
  if (!isAdmin) {
    return (
      <section className="page admin" aria-busy="true">
        <h1>Loading</h1>
        <p className="muted">Please wait...</p>
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
