import { useEffect, useRef, useState } from 'react';

export const FLASH_MS = 400;

/**
 * The price flash (docs/product.md#funding: the price tag, the chat's send arrow): 'up' (red) when the value rose, 'down' (green)
 * when it fell, for 400 ms; the colour then eases back over 0.7 s in CSS.
 */
export function useFlash(value: number | undefined): 'up' | 'down' | undefined {
  const previous = useRef(value);
  const [flash, setFlash] = useState<'up' | 'down' | undefined>();
  useEffect(() => {
    const before = previous.current;
    previous.current = value;
    if (before === undefined || value === undefined || before === value) return;
    setFlash(value > before ? 'up' : 'down');
    const timer = setTimeout(() => setFlash(undefined), FLASH_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return flash;
}
