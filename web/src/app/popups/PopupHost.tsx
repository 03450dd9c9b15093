import { useEffect } from 'react';
import { setPaymentRequiredHandler } from '../../lib/api';
import { AddMoneyPopup } from './AddMoneyPopup';
import { NicknamePopup } from './NicknamePopup';
import { SignInPopup } from './SignInPopup';
import { openPopup, usePopup } from './store';
import { WelcomePopup } from './WelcomePopup';

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
