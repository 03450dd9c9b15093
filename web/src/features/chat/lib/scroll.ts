import { useCallback, useLayoutEffect, useRef, useState } from 'react';

/** Within this many pixels of the bottom counts as at the bottom. */
const AT_BOTTOM_PX = 24;

/**
 * docs/product.md#chat: new messages scroll the list to the bottom only when it was already there; otherwise a scroll-down
 * arrow shows. `count` is the number of messages, which changes when one arrives.
 */
export function useStickToBottom(count: number) {
  const list = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [showArrow, setShowArrow] = useState(false);

  const onScroll = useCallback(() => {
    const el = list.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX;
    if (atBottom.current) setShowArrow(false);
  }, []);

  const scrollDown = useCallback(() => {
    const el = list.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    setShowArrow(false);
  }, []);

  useLayoutEffect(() => {
    if (count === 0) return;
    if (atBottom.current) scrollDown();
    else setShowArrow(true);
  }, [count, scrollDown]);

  return { list, onScroll, showArrow, scrollDown };
}
