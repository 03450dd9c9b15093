/**
 * The card a user just funded stays where it was on the screen while the wall re-ranks around it (issue 22): the
 * funding moves it up the ranking, and without this the page would keep its scroll position and the card would leave
 * the screen. The wall calls `keepFollowedInPlace` after each re-rank; the following ends after FOLLOW_MS, so a later
 * re-rank by someone else's payment moves the wall as before.
 */
export const FOLLOW_MS = 5_000;

const cardOf = (root: ParentNode, id: number) =>
  root.querySelector<HTMLElement>(`[data-testid="picture-card"][data-picture-id="${id}"]`);

let followed: { id: number; top: number; until: number } | null = null;

/** Where the card is when its user acts; a scroll by the user moves the place it is kept at. */
function remember(id: number, until: number): void {
  const card = cardOf(document, id);
  followed = card ? { id, top: card.getBoundingClientRect().top, until } : null;
}

const onScroll = () => {
  if (!followed || Date.now() > followed.until) {
    followed = null;
    window.removeEventListener('scroll', onScroll);
    return;
  }
  remember(followed.id, followed.until);
};

/** Called when the user funds the picture `id` from its card. */
export function followCard(id: number): void {
  remember(id, Date.now() + FOLLOW_MS);
  if (followed) window.addEventListener('scroll', onScroll, { passive: true });
}

/** After a re-rank: scrolls by as much as the followed card moved, so it is where it was before. */
export function keepFollowedInPlace(root: HTMLElement | null): void {
  if (!followed || !root) return;
  if (Date.now() > followed.until) {
    followed = null;
    return;
  }
  const card = cardOf(root, followed.id);
  if (!card) return;
  const moved = card.getBoundingClientRect().top - followed.top;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
}
