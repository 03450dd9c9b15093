import { AdminConsole } from '../features/admin/components/AdminConsole';
import { FreeFetch } from '../features/admin/components/FreeFetch';
import { HealthCheck } from '../features/admin/components/HealthCheck';
import { ReportsList } from '../features/admin/components/ReportsList';
import { CharityAdmin } from '../features/charity/components/CharityAdmin';
import '../features/admin/admin.css';
import '../features/charity/charity.css';

const TABS = [
  { id: 'fetch', label: 'Free Fetch', panel: <FreeFetch /> },
  { id: 'charity', label: 'Charity Form', panel: <CharityAdmin /> },
  { id: 'reports', label: 'Reports', panel: <ReportsList /> },
  { id: 'health', label: 'Health', panel: <HealthCheck /> },
];

/**
 * /admin-console, a chunk of its own. The server gives this path a wider connect-src only when it is loaded as a
 * whole document, so links here must load the page (never a client-side navigation).
 */
export default function AdminConsolePage() {
  return <AdminConsole tabs={TABS} />;
}
