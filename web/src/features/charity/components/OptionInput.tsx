import { useId } from 'react';
import { isOffered } from '../lib/form';

/** A dropdown with free text: an input with the offered values as suggestions, green when it holds one of them. */
export function OptionInput({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  const listId = `${id}-options`;
  const known = isOffered(value, options);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        list={listId}
        value={value}
        autoComplete="off"
        className={known ? 'option-input option-input--known' : 'option-input'}
        data-known={known}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={listId}>
        {options.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
    </div>
  );
}
