import { AdminConsole } from '../features/admin/components/AdminConsole';
import { FreeFetch } from '../features/admin/components/FreeFetch';
import { HealthCheck } from '../features/admin/components/HealthCheck';
import { ReportsList } from '../features/admin/components/ReportsList';
import { CharityAdmin } from '../features/charity/components/CharityAdmin';
import { AppealsList } from '../features/moderation/components/AppealsList';
import { BlockedWordsForm } from '../features/moderation/components/BlockedWordsForm';
import { DecideForm } from '../features/moderation/components/DecideForm';
import '../features/admin/admin.css';
import '../features/charity/charity.css';
import '../features/moderation/moderation.css';

const TABS = [
  { id: 'fetch', label: 'Free Fetch', panel: <FreeFetch /> },
  { id: 'charity', label: 'Charity Form', panel: <CharityAdmin /> },
  {
    id: 'reports',
    label: 'Reports',
    // Each open report's 'Decide' opens the decision form (docs/product.md#moderation-screens).
    panel: <ReportsList decide={(report, close) => <DecideForm report={report} onDone={close} onCancel={close} />} />,
  },
  { id: 'appeals', label: 'Appeals', panel: <AppealsList /> },
  { id: 'words', label: 'Blocked words', panel: <BlockedWordsForm /> },
  { id: 'health', label: 'Health', panel: <HealthCheck /> },
];

/**
 * /admin-console, a chunk of its own. The server gives this path a wider connect-src only when it is loaded as a
 * whole document, so links here must load the page (never a client-side navigation).
 */
export default function AdminConsolePage() {
  return <AdminConsole tabs={TABS} />;
}
