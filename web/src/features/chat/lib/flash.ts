import { useEffect, useRef, useState } from 'react';

export const FLASH_MS = 400;

/**
 * The price flash on the send arrow (SPEC §4): 'up' (red) when the price rose, 'down' (green) when it fell, for
 * 400 ms; the colour eases back over 0.7 s in CSS.
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
