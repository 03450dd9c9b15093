import { NicknamePopup } from '../../features/auth/components/NicknamePopup';
import { SignInPopup } from '../../features/auth/components/SignInPopup';
import { WelcomePopup } from '../../features/auth/components/WelcomePopup';
import { BlockPopup } from '../../features/blocks/components/BlockPopup';
import { CharityLinkPopup } from '../../features/charity/components/CharityLinkPopup';
import { OffersPopup } from '../../features/market/components/OffersPopup';
import { AddMoneyPopup } from '../../features/payments/components/AddMoneyPopup';
import { ReportPopup } from '../../features/reports/components/ReportPopup';
import type { PopupSpec } from '../../lib/popups';
import { tenant } from '../../lib/tenant';
import '../../features/charity/charity.css';

/** The popup a spec names. A chunk of its own: no popup is needed to show a page, so the first load does without. */
export default function OpenPopup({ spec }: { spec: PopupSpec }) {
  switch (spec.kind) {
    case 'signIn':
      return <SignInPopup key="signIn" initialTab={spec.tab} />;
    case 'nickname':
      return <NicknamePopup />;
    case 'welcome':
      return <WelcomePopup username={spec.username} />;
    case 'addMoney':
      // Where card top-up is not offered, adding money is donating (docs/product.md#tenants).
      if (tenant === 'charity') return <CharityLinkPopup key={spec.missing ?? 0} missing={spec.missing} />;
      return <AddMoneyPopup key={spec.missing ?? 0} missing={spec.missing} />;
    case 'charityLink':
      return <CharityLinkPopup key={spec.missing ?? 0} missing={spec.missing} />;
    case 'offers':
      return <OffersPopup key={`${spec.itemType}/${spec.side}`} itemType={spec.itemType} side={spec.side} />;
    case 'reportMessage':
      return <ReportPopup key={`${spec.type}/${spec.messageId}`} type={spec.type} messageId={spec.messageId} />;
    case 'blockUser':
      return <BlockPopup key={spec.userId} userId={spec.userId} username={spec.username} />;
  }
}
