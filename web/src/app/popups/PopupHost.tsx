import { useEffect } from 'react';
import { NicknamePopup } from '../../features/auth/components/NicknamePopup';
import { SignInPopup } from '../../features/auth/components/SignInPopup';
import { WelcomePopup } from '../../features/auth/components/WelcomePopup';
import { AddMoneyPopup } from '../../features/payments/components/AddMoneyPopup';
import { setPaymentRequiredHandler } from '../../lib/api';
import { openPopup, usePopup } from '../../lib/popups';

/** Renders the one open popup; also makes any 402 answer open the top-up with its shortfall. */
export function PopupHost() {
  const open = usePopup();
  useEffect(() => setPaymentRequiredHandler((missing) => openPopup({ kind: 'addMoney', missing })), []);
  if (!open) return null;
  const { spec } = open;
  switch (spec.kind) {
    case 'signIn':
      return <SignInPopup key="signIn" initialTab={spec.tab} />;
    case 'nickname':
      return <NicknamePopup />;
    case 'welcome':
      return <WelcomePopup username={spec.username} />;
    case 'addMoney':
      return <AddMoneyPopup key={spec.missing ?? 0} missing={spec.missing} />;
  }
}
