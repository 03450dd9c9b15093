import { NicknamePopup } from '../../features/auth/components/NicknamePopup';
import { SignInPopup } from '../../features/auth/components/SignInPopup';
import { WelcomePopup } from '../../features/auth/components/WelcomePopup';
import { OffersPopup } from '../../features/market/components/OffersPopup';
import { AddMoneyPopup } from '../../features/payments/components/AddMoneyPopup';
import { ReportPopup } from '../../features/reports/components/ReportPopup';
import type { PopupSpec } from '../../lib/popups';

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
      return <AddMoneyPopup key={spec.missing ?? 0} missing={spec.missing} />;
    case 'offers':
      return <OffersPopup key={`${spec.itemType}/${spec.side}`} itemType={spec.itemType} side={spec.side} />;
    case 'reportMessage':
      return <ReportPopup key={`${spec.type}/${spec.messageId}`} type={spec.type} messageId={spec.messageId} />;
  }
}
