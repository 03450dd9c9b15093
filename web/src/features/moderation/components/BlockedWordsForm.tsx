import { useId, useState, type FormEvent } from 'react';
import { MAX_BLOCKED_WORD_LENGTH, MAX_BLOCKED_WORDS } from '../../../../../common/moderation';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { fieldErrorsOf } from '../../../lib/api';
import { useBlockedWords, useSaveBlockedWords } from '../api/admin';
import { refusalText } from '../lib/errors';

/** The lines of the textarea as the list's words: trimmed, no empty lines, each once (case aside). */
export function wordsOf(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const line of text.split('\n')) {
    const word = line.trim();
    if (word === '' || seen.has(word.toLowerCase())) continue;
    seen.add(word.toLowerCase());
    words.push(word);
  }
  return words;
}

/** The Blocked words tab (docs/product.md#moderation-screens): one word per line, saved as a whole. */
export function BlockedWordsForm() {
  const query = useBlockedWords();
  if (query.isPending) return <p className="loading">Loading...</p>;
  if (query.isError)
    return <LoadFailed text="Failed to load the blocked words." onRetry={() => void query.refetch()} />;
  return <WordsEditor initial={query.data.words} />;
}

function WordsEditor({ initial }: { initial: string[] }) {
  const save = useSaveBlockedWords();
  const id = useId();
  const [text, setText] = useState(initial.join('\n'));
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending) return;
    const words = wordsOf(text);
    if (words.length > MAX_BLOCKED_WORDS) return setOutcome({ ok: false, text: `At most ${MAX_BLOCKED_WORDS} words.` });
    if (words.some((w) => w.length > MAX_BLOCKED_WORD_LENGTH))
      return setOutcome({ ok: false, text: `A word has at most ${MAX_BLOCKED_WORD_LENGTH} characters.` });
    try {
      await save.run({ words });
      setText(words.join('\n'));
      setOutcome({ ok: true, text: 'Saved.' });
    } catch (err) {
      const fields = fieldErrorsOf(err);
      setOutcome({ ok: false, text: fields?.length ? fields.map((f) => f.errorText).join(' ') : refusalText(err) });
    }
  };

  return (
    <form className="stack blocked-words" onSubmit={(e) => void send(e)} aria-label="Blocked words">
      <div className="field">
        <label htmlFor={id}>Blocked words, one per line</label>
        <textarea
          id={id}
          rows={10}
          value={text}
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value);
            setOutcome(undefined);
          }}
        />
      </div>
      <p className="muted">
        A comment, reply, chat message or nickname with one of these words, matched as a whole word whatever its case,
        is refused before anything is charged.
      </p>
      {outcome && (
        <p className={outcome.ok ? 'form-success' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </p>
      )}
      <div>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          Save
        </button>
      </div>
    </form>
  );
}
