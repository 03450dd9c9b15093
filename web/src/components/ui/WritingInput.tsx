import { useEffect, useRef, useState, type ReactNode } from 'react';
import { MAX_MESSAGE_LENGTH, TOO_LONG_HINT, characters, refusalOf, type Writer } from '../../../../common/writing';
import './WritingInput.css';

/** How long a refusal hint stays (docs/product.md#writing). */
export const HINT_MS = 2000;

/**
 * The comment and chat input (docs/product.md#writing): a character the writer does not own is refused as it
 * is typed or pasted, and the hint saying why shows for 2 s. Enter sends; an empty input does not.
 */
export function WritingInput({
  value,
  onChange,
  writer,
  onSubmit,
  placeholder,
  label,
  disabled,
  children,
}: {
  value: string;
  onChange: (value: string) => void;
  writer: Writer;
  onSubmit: () => void;
  placeholder?: string;
  /** The input's accessible name. */
  label: string;
  disabled?: boolean;
  /** Beside the input: the cost, the send button. */
  children?: ReactNode;
}) {
  const [hint, setHint] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const refuse = (text: string) => {
    setHint(text);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setHint(null), HINT_MS);
  };

  const change = (next: string) => {
    const chars = characters(next);
    if (chars.length > MAX_MESSAGE_LENGTH) return refuse(TOO_LONG_HINT);
    for (const char of chars) {
      const why = refusalOf(char, writer);
      if (why) return refuse(why);
    }
    onChange(next);
  };

  return (
    <div className="writing-input">
      {hint && (
        <p className="writing-input__hint" role="status">
          {hint}
        </p>
      )}
      <input
        aria-label={label}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
          e.preventDefault();
          if (value.trim() !== '') onSubmit();
        }}
      />
      {children}
    </div>
  );
}
