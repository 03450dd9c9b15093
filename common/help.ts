/** The help tooltip text of each page (docs/product.md#screens). */
const HELP: [RegExp, string][] = [
  [/^\/$/, 'The top wall: pictures ranked by all the money ever put on them. Tap a price tag to add yours.'],
  [/^\/trending/, 'Trending: pictures ranked by recent money; older payments count less every minute.'],
  [/^\/image\/share/, 'Make a shareable image with the price tag, trophy and logo overlays.'],
  [/^\/image\//, 'One picture with its comments. Swipe or use the arrows for the next one.'],
  [/^\/profile\/edit/, 'Choose one of your pictures as your profile picture.'],
  [/^\/profile\//, "A user's pictures, most recently funded by their author first."],
  [/^\/mobile-profile/, 'Your account: profile picture, transactions, Swag, notifications and logout.'],
  [/^\/upload/, 'Upload a picture and set its price: the price is its first funding.'],
  [/^\/lootboxes\/fairness/, 'Check that your lootbox openings were fair: the seeds, and each opening recomputed.'],
  [/^\/lootboxes/, 'Get a free lootbox, open it with a key, and collect letters and emojis.'],
  [/^\/my-items/, 'Your letters and emojis. You can write with what you own.'],
  [/^\/item-store/, 'Every letter and emoji with market prices. Buy, sell or make offers.'],
  [/^\/items-detail/, 'One item: its offers, price history, and buy and sell forms.'],
  [/^\/chat/, 'The general room. Each message costs money; longer ones cost more.'],
  [/notifications/, 'What happened to your pictures, comments and trades.'],
  [/^\/verify-email/, 'Confirming the email address of your account.'],
  [/^\/goodwill\/proof/, 'How to check that the money was really forwarded.'],
  [/^\/goodwill/, 'Half of what you spend goes to the cause you choose here.'],
  [/^\/transactions/, 'Where your money went, by kind of spending.'],
  [/^\/(success|cancel|close-the-window)/, 'The result of a card payment.'],
  [/^\/admin-console/, 'Administrator tools.'],
  [/^\/moderation-log/, 'Every moderation decision, without names or content.'],
  [/^\/moderation/, 'Decisions moderators made about your content, and your appeals.'],
  [/^\/blocked/, 'The users you blocked. Unblock them here.'],
  [/donations/, 'Charity donation links sent to be credited to a balance.'],
];

export function helpFor(pathname: string): string {
  return HELP.find(([p]) => p.test(pathname))?.[1] ?? 'A social wall of pictures ranked by money.';
}
