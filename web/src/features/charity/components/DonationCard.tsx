import type { ReactNode } from 'react';
import type { DonationLink } from '../../../../../common/api/charity';
import { charityLinkHref, donationStatus, hostnameOf } from '../../../../../common/charity';
import { formatDateTime } from '../../../../../common/time';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { STATUS_LABEL } from '../lib/status';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="donation__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * One donation link (docs/product.md#charity): the status badge, Charity Name when there is one, Badge id,
 * the link as its hostname opening in a new tab, the time ago, and the Rejection Reason of a rejected link. The admin
 * list adds the fields only an admin sees.
 */
export function DonationCard({ link, admin = false }: { link: DonationLink; admin?: boolean }) {
  const status = donationStatus(link);
  const rejectionReason = link.adminRejectionReason || null;
  return (
    <article className="donation" data-testid="donation" data-status={status}>
      <header className="donation__header">
        <span className={`donation__status donation__status--${status.toLowerCase()}`}>{STATUS_LABEL[status]}</span>
        <RelativeTime at={link.createdOn} />
      </header>
      <dl className="donation__fields">
        {link.charityName ? <Row label="Charity Name">{link.charityName}</Row> : null}
        <Row label="Badge id">{link.badgeId}</Row>
        <Row label="Link">
          <DonationHref link={link.link} />
        </Row>
        {status === 'REJECTED' && rejectionReason ? <Row label="Rejection Reason">{rejectionReason}</Row> : null}
        {admin ? <AdminRows link={link} /> : null}
      </dl>
      {admin ? (
        <details className="donation__raw">
          <summary>Raw data</summary>
          <pre>{JSON.stringify(link, null, 2)}</pre>
        </details>
      ) : null}
    </article>
  );
}

/**
 * The link as its hostname, opening in a new tab; only a web link (http or https) is ever an href. A link stored
 * before that rule (a `javascript:` or `data:` one) shows as plain text.
 */
function DonationHref({ link }: { link: string }) {
  const href = charityLinkHref(link);
  if (!href) return <span className="donation__full-link">{link}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {hostnameOf(link)}
    </a>
  );
}

function AdminRows({ link }: { link: DonationLink }) {
  return (
    <>
      <Row label="Link ID">{link.id}</Row>
      <Row label="Full Link">
        <span className="donation__full-link">{link.link}</span>
      </Row>
      <Row label="Username">{link.sender?.username ?? '—'}</Row>
      <Row label="Sender ID">{link.sender?.id ?? '—'}</Row>
      <Row label="Created On">{formatDateTime(link.createdOn)}</Row>
      <Row label="Publicly Visible">{link.publiclyVisible ? 'Yes' : 'No'}</Row>
      <Row label="Admin Category">{link.adminCategory ?? '—'}</Row>
      <Row label="Admin Rejection Reason">{link.adminRejectionReason ?? '—'}</Row>
    </>
  );
}
