/*
 * Blocked words (docs/product.md#blocks): an admin-kept list; a comment, reply, chat message or nickname containing
 * one, case-insensitively and as a whole word, is refused before anything is charged. Pure, for the server and the
 * web client alike.
 */

/** A word as the list stores it: trimmed and lower-case. */
export const normalizeBlockedWord = (word: string): string => word.trim().toLowerCase();

/** The list as stored: each word normalized, blanks dropped, each once, in order. */
export function normalizeBlockedWords(words: readonly string[]): string[] {
  return [...new Set(words.map(normalizeBlockedWord).filter((w) => w !== ''))];
}

/** A letter or a digit of any script: what a word is made of (an underscore parts words, as in nicknames). */
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * A matcher of the list: `(text)` answers the first blocked word the text contains, or null. A word matches as a
 * whole word: not inside a longer one (`ass` is not found in `class`), whatever the script; a word whose edge is not
 * a letter (`$$$`) matches wherever it stands.
 */
export function blockedWordMatcher(words: readonly string[]): (text: string) => string | null {
  const list = normalizeBlockedWords(words);
  if (list.length === 0) return () => null;
  // The longest first, so the answer names the whole of an overlapping phrase.
  const alternatives = [...list]
    .sort((a, b) => b.length - a.length)
    .map((word) => {
      const before = WORD_CHAR.test(word[0]!) ? '(?<![\\p{L}\\p{M}\\p{N}])' : '';
      const after = WORD_CHAR.test(word.at(-1)!) ? '(?![\\p{L}\\p{M}\\p{N}])' : '';
      return `${before}${escape(word)}${after}`;
    });
  const pattern = new RegExp(alternatives.join('|'), 'iu');
  return (text) => {
    const found = pattern.exec(text.normalize('NFC'));
    return found ? found[0].toLowerCase() : null;
  };
}

/** What a refused text is told (400 on its field). */
export const blockedWordText = (word: string): string => `"${word}" is not allowed here. Please reword.`;
