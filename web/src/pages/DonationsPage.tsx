import { DonationsView } from '../features/charity/components/DonationsView';
import { useLoggedIn } from '../lib/session';
import '../features/charity/charity.css';

/** /my-donations: the signed-in user's donation links, Pending included (charity tenants only). */
export function MyDonationsPage() {
  return <DonationsView scope="my" signedIn={useLoggedIn()} />;
}

/** /public-donations: the decided, publicly visible links, without who sent them. */
export function PublicDonationsPage() {
  return <DonationsView scope="public" signedIn={useLoggedIn()} />;
}
