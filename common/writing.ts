import { emojiItemOf, itemOf } from './items';

/**
 * The writing rules (docs/product.md#writing): a user writes only with the letters and emojis
 * they own. The browser runs these for its hints; the server runs the same module as the authority. Letters count as
 * distinct letters owned (docs/product.md#writing), and owning an item is what lets one write it: writing never
 * consumes it.
 */

/** Longest comment or chat message, in characters (graphemes: an emoji of several code points is one). */
export const MAX_MESSAGE_LENGTH = 500;

/** How many distinct letters unlock each kind of character (docs/product.md#writing). */
export const UNLOCK = { space: 5, uppercase: 10, punctuation: 15, digits: 20, everything: 26 } as const;

/**
 * Combining marks (accents) one character may carry. Marks stack on their base without limit in Unicode, so a
 * single "character" of thousands of marks would pass the length limit, cost one character and paint over a whole
 * room; two is as many as any language's letters need (docs/decisions.md, issue 22 item 30).
 */
export const MAX_MARKS_PER_CHARACTER = 2;
export const TOO_MANY_MARKS_HINT = `At most ${MAX_MARKS_PER_CHARACTER} accent marks on one character`;

/** The punctuation that 15 letters unlock; every other printable character needs all 26. */
export const PUNCTUATION = ['.', ',', '!', '?', '-'] as const;

/** What a user may write with: the letters (A–Z) and emoji items they own at least one of. */
export interface Writer {
  letters: ReadonlySet<string>;
  /** Item codes of owned emoji items. */
  emojis: ReadonlySet<string>;
  /** The picture author's mode on their own picture: as if owning all 26 letters (emojis must still be owned). */
  allLetters?: boolean;
}

/** A writer from an inventory (rows, or item type → quantity): every item with a quantity of at least one. */
export function writerOf(
  owned: Iterable<{ itemType: string; quantity: number }> | ReadonlyMap<string, number>,
  opts: { allLetters?: boolean } = {},
): Writer {
  const letters = new Set<string>();
  const emojis = new Set<string>();
  const rows = owned instanceof Map ? [...owned].map(([itemType, quantity]) => ({ itemType, quantity })) : owned;
  for (const { itemType, quantity } of rows as Iterable<{ itemType: string; quantity: number }>) {
    const item = itemOf(itemType);
    if (!item || quantity < 1) continue;
    if (item.tier === 'LETTER') letters.add(item.emoji);
    else emojis.add(item.itemType);
  }
  return { letters, emojis, allLetters: opts.allLetters };
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The characters of a text as a reader sees them: an emoji of several code points is one character. */
export function characters(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The length the 500-character limit and the chat price count. */
export const textLength = (text: string): number => characters(text).length;

/** The cost of a chat message (docs/product.md#chat): (floor(length / 10) + 1) × the unit price. */
export const chatCost = (text: string, unitPrice: number): number =>
  (Math.floor(textLength(text) / 10) + 1) * unitPrice;

const VARIATION_SELECTOR = /\uFE0F/g;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
/** Controls, format characters, separators other than space, unassigned and private-use code points. */
const UNWRITABLE = /[\p{C}\p{Z}]/u;

/** The catalogue emoji written as this character, with or without the emoji variation selector. */
function emojiOf(char: string) {
  return emojiItemOf(char) ?? emojiItemOf(char.replace(VARIATION_SELECTOR, '')) ?? emojiItemOf(`${char}\uFE0F`);
}

/** How many distinct letters the writer counts as owning. */
const letterCount = (w: Writer) => (w.allLetters ? UNLOCK.everything : w.letters.size);

const MARK = /\p{M}/u;
const VARIATION = /[\uFE00-\uFE0F]/u;

/**
 * Whether a character carries more than MAX_MARKS_PER_CHARACTER marks. A character that is not an emoji is counted
 * in code points after its first, not only marks, so nothing else that joins into one character (a run of Hangul
 * jamo, extenders) makes one paid character out of many. An emoji sequence (ZWJ, skin tones) may be longer, but
 * not by marks; every emoji of the catalogue is one or two code points, so none of this refuses one.
 */
function tooManyMarks(char: string): boolean {
  const points = [...char];
  if (points.length > 1 + MAX_MARKS_PER_CHARACTER && !PICTOGRAPHIC.test(char)) return true;
  return points.filter((p) => MARK.test(p) && !VARIATION.test(p)).length > MAX_MARKS_PER_CHARACTER;
}

/** Why this writer cannot write this one character (the hint text of docs/product.md#writing), or null when they can. */
export function refusalOf(char: string, w: Writer): string | null {
  // First: the other hints quote the character, and this one may be thousands of code points long.
  if (tooManyMarks(char)) return TOO_MANY_MARKS_HINT;
  const count = letterCount(w);
  if (/^[a-z]$/.test(char)) {
    const upper = char.toUpperCase();
    return w.allLetters || w.letters.has(upper) ? null : `You don't own ${itemOf(`COMMON_LETTER_${upper}`)!.name}`;
  }
  if (/^[A-Z]$/.test(char)) {
    if (count < UNLOCK.uppercase) return `At least ${UNLOCK.uppercase} letters required to write in uppercase`;
    return w.allLetters || w.letters.has(char) ? null : `You don't own ${itemOf(`COMMON_LETTER_${char}`)!.name}`;
  }
  if (char === ' ') return count >= UNLOCK.space ? null : `At least ${UNLOCK.space} letters required to write space`;
  if ((PUNCTUATION as readonly string[]).includes(char)) {
    return count >= UNLOCK.punctuation ? null : `At least ${UNLOCK.punctuation} letters required to write ${char}`;
  }
  if (/^[0-9]$/.test(char)) {
    return count >= UNLOCK.digits ? null : `At least ${UNLOCK.digits} letters required to write numbers`;
  }
  const emoji = emojiOf(char);
  if (emoji) return w.emojis.has(emoji.itemType) ? null : `You don't own ${emoji.name}`;
  if (PICTOGRAPHIC.test(char)) return `No one can write ${char}`;
  if (UNWRITABLE.test(char)) return `You can't write ${char}`;
  return count >= UNLOCK.everything ? null : `You must own all letters to write ${char}`;
}

export type TextCheck = { ok: true } | { ok: false; hint: string };

export const EMPTY_TEXT_HINT = 'Write something first';
export const TOO_LONG_HINT = `At most ${MAX_MESSAGE_LENGTH} characters`;

/**
 * Whether this writer may send this text: not empty (nor only spaces), at most 500 characters, every character
 * writable. The hint is the first refused character's.
 */
export function checkText(text: string, w: Writer): TextCheck {
  const chars = characters(text);
  if (text.trim() === '') return { ok: false, hint: EMPTY_TEXT_HINT };
  if (chars.length > MAX_MESSAGE_LENGTH) return { ok: false, hint: TOO_LONG_HINT };
  for (const char of chars) {
    const hint = refusalOf(char, w);
    if (hint) return { ok: false, hint };
  }
  return { ok: true };
}
