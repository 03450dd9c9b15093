import { describe, expect, it } from 'vitest';
import {
  EMPTY_TEXT_HINT,
  MAX_MARKS_PER_CHARACTER,
  MAX_MESSAGE_LENGTH,
  TOO_LONG_HINT,
  TOO_MANY_MARKS_HINT,
  characters,
  chatCost,
  checkText,
  refusalOf,
  textLength,
  writerOf,
  type Writer,
} from './writing';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

/** A writer owning the first `n` letters of the alphabet and these emoji items. */
function owning(n: number, emojis: string[] = []): Writer {
  return writerOf([
    ...ALPHABET.slice(0, n).map((l) => ({ itemType: `COMMON_LETTER_${l}`, quantity: 1 })),
    ...emojis.map((itemType) => ({ itemType, quantity: 1 })),
  ]);
}

const author = (emojis: string[] = []) =>
  writerOf(
    emojis.map((itemType) => ({ itemType, quantity: 1 })),
    { allLetters: true },
  );

describe('writerOf', () => {
  it('counts every item owned at least once, letters by their letter and emojis by their code', () => {
    const w = writerOf([
      { itemType: 'COMMON_LETTER_A', quantity: 3 },
      { itemType: 'COMMON_LETTER_B', quantity: 1 },
      { itemType: 'COMMON_LETTER_C', quantity: 0 },
      { itemType: 'UNCOMMON_EMOJI_FIRE', quantity: 1 },
      { itemType: 'RARE_EMOJI_ROCKET', quantity: 0 },
      { itemType: 'NOT_AN_ITEM', quantity: 5 },
    ]);
    expect([...w.letters].sort()).toEqual(['A', 'B']);
    expect([...w.emojis]).toEqual(['UNCOMMON_EMOJI_FIRE']);
    expect(w.allLetters).toBeUndefined();
  });

  it('counts distinct letters, not units: 30 units of A are one letter', () => {
    const w = writerOf([{ itemType: 'COMMON_LETTER_A', quantity: 30 }]);
    expect(w.letters.size).toBe(1);
    expect(refusalOf(' ', w)).toBe('At least 5 letters required to write space');
  });
});

describe('letters', () => {
  it('a lowercase letter needs its letter item', () => {
    const w = owning(3); // A B C
    expect(refusalOf('a', w)).toBeNull();
    expect(refusalOf('c', w)).toBeNull();
    expect(refusalOf('d', w)).toBe("You don't own Letter D");
    expect(refusalOf('z', w)).toBe("You don't own Letter Z");
  });

  it('with no letter at all every letter is refused by name', () => {
    expect(refusalOf('q', owning(0))).toBe("You don't own Letter Q");
  });
});

describe('the thresholds of distinct letters (docs/product.md#writing)', () => {
  it('space needs 5 letters', () => {
    expect(refusalOf(' ', owning(4))).toBe('At least 5 letters required to write space');
    expect(refusalOf(' ', owning(5))).toBeNull();
  });

  it('uppercase needs 10 letters, and the letter itself', () => {
    expect(refusalOf('A', owning(9))).toBe('At least 10 letters required to write in uppercase');
    expect(refusalOf('A', owning(10))).toBeNull();
    expect(refusalOf('J', owning(10))).toBeNull();
    expect(refusalOf('K', owning(10))).toBe("You don't own Letter K");
  });

  it('. , ! ? - need 15 letters, each named in the hint', () => {
    for (const p of ['.', ',', '!', '?', '-']) {
      expect(refusalOf(p, owning(14))).toBe(`At least 15 letters required to write ${p}`);
      expect(refusalOf(p, owning(15))).toBeNull();
    }
  });

  it('digits need 20 letters', () => {
    for (const d of '0123456789') {
      expect(refusalOf(d, owning(19))).toBe('At least 20 letters required to write numbers');
      expect(refusalOf(d, owning(20))).toBeNull();
    }
  });

  it('every other printable character needs all 26 letters', () => {
    for (const c of ['@', '#', '~', ':', ';', '(', '"', "'", 'é', 'ß', '中', '€', '_', '/']) {
      expect(refusalOf(c, owning(25))).toBe(`You must own all letters to write ${c}`);
      expect(refusalOf(c, owning(26))).toBeNull();
    }
  });

  it('with all 26 letters a whole sentence of every kind is writable', () => {
    expect(checkText('Hello, World! Is 2 + 2 = 4? Yes - 100% (sure) @home #1 ~ café', owning(26))).toEqual({
      ok: true,
    });
  });
});

describe('emojis', () => {
  it('an emoji must be owned; an unowned one is refused by its item name', () => {
    const w = owning(26, ['UNCOMMON_EMOJI_FIRE']);
    expect(refusalOf('🔥', w)).toBeNull();
    expect(refusalOf('🚀', w)).toBe("You don't own Rocket");
    expect(refusalOf('🦄', owning(0))).toBe("You don't own Unicorn");
  });

  it('all 26 letters never unlock an emoji', () => {
    expect(refusalOf('👑', owning(26))).toBe("You don't own Crown");
  });

  it('an emoji with a variation selector is the same item as without it, both ways', () => {
    // The catalogue writes the heart with U+FE0F and the star without it.
    const w = owning(0, ['UNCOMMON_EMOJI_HEART', 'UNCOMMON_EMOJI_STAR']);
    expect(refusalOf('❤️', w)).toBeNull();
    expect(refusalOf('❤', w)).toBeNull();
    expect(refusalOf('⭐', w)).toBeNull();
    expect(refusalOf('⭐\uFE0F', w)).toBeNull();
    expect(refusalOf('❤', owning(0))).toBe("You don't own Red heart");
    expect(refusalOf('⭐\uFE0F', owning(0))).toBe("You don't own Star");
    expect(refusalOf('☄', owning(0))).toBe("You don't own Comet");
  });

  it('an emoji of several code points is one character', () => {
    expect(characters('❤️')).toEqual(['❤️']);
    expect(characters('👨‍👩‍👧a')).toEqual(['👨‍👩‍👧', 'a']);
    expect(textLength('🔥👍🏽❤️‍🔥')).toBe(3);
  });

  it('an emoji outside the catalogue is written by no one, ZWJ sequences and skin tones included', () => {
    const everything = owning(26, ['UNCOMMON_EMOJI_HEART', 'UNCOMMON_EMOJI_FIRE', 'UNCOMMON_EMOJI_THUMBS_UP']);
    expect(refusalOf('🐸', everything)).toBe('No one can write 🐸');
    // Heart and fire are owned, but the ZWJ sequence of the two is another emoji.
    expect(refusalOf('❤️‍🔥', everything)).toBe('No one can write ❤️‍🔥');
    expect(refusalOf('👨‍👩‍👧', everything)).toBe('No one can write 👨‍👩‍👧');
    expect(refusalOf('👍🏽', everything)).toBe('No one can write 👍🏽');
    expect(refusalOf('🇫🇷', everything)).toBe('No one can write 🇫🇷');
    expect(refusalOf('🐸', author())).toBe('No one can write 🐸');
  });

  it('the hint of a whole text names its first refused character', () => {
    const w = owning(26, ['UNCOMMON_EMOJI_FIRE']);
    expect(checkText('Nice 🔥 🚀 🐸', w)).toEqual({ ok: false, hint: "You don't own Rocket" });
  });
});

describe('characters no one can write', () => {
  it('control, format and separator characters other than space are refused even with all letters', () => {
    for (const c of [
      '\t',
      '\n',
      '\r',
      '\u0000',
      '\u0007',
      '\u007F',
      '\u200B',
      '\u200D',
      '\u00A0',
      '\u2028',
      '\uE000',
    ]) {
      expect(refusalOf(c, owning(26))).toBe(`You can't write ${c}`);
      expect(refusalOf(c, author())).toBe(`You can't write ${c}`);
    }
  });

  it('a line break inside a text refuses it', () => {
    expect(checkText('ab\ncd', owning(26))).toEqual({ ok: false, hint: "You can't write \n" });
  });
});

describe('accent marks on one character (combining marks, "Zalgo")', () => {
  const ACUTE = '\u0301';
  const TILDE = '\u0303';
  const zalgo = 'a' + '\u0338\u0322\u0334'.repeat(1301); // 3,903 marks on one letter

  it('allows a letter with up to 2 marks to those who may write accented letters', () => {
    expect(MAX_MARKS_PER_CHARACTER).toBe(2);
    expect(refusalOf(`e${ACUTE}`, owning(26))).toBeNull();
    expect(refusalOf(`e${ACUTE}${TILDE}`, owning(26))).toBeNull();
    expect(refusalOf(`e${ACUTE}${TILDE}`, author())).toBeNull();
  });

  it('refuses a third mark, in words, even to a writer owning every letter, without quoting the character', () => {
    expect(TOO_MANY_MARKS_HINT).toBe('At most 2 accent marks on one character');
    expect(refusalOf(`e${ACUTE}${TILDE}${ACUTE}`, owning(26))).toBe(TOO_MANY_MARKS_HINT);
    expect(refusalOf(`e${ACUTE}${TILDE}${ACUTE}`, author())).toBe(TOO_MANY_MARKS_HINT);
    expect(refusalOf(zalgo, author())).toBe(TOO_MANY_MARKS_HINT);
    // Marks with no letter under them, and marks on an emoji, are held to the same bound.
    expect(refusalOf(ACUTE.repeat(3), author())).toBe(TOO_MANY_MARKS_HINT);
    expect(refusalOf(`🔥${ACUTE.repeat(3)}`, owning(26, ['UNCOMMON_EMOJI_FIRE']))).toBe(TOO_MANY_MARKS_HINT);
  });

  it('refuses the 3,903-mark message that once cost one character, though it is still one character long', () => {
    expect(textLength(zalgo)).toBe(1);
    expect(checkText(zalgo, author())).toEqual({ ok: false, hint: TOO_MANY_MARKS_HINT });
    expect(checkText(`Hi ${zalgo}`, owning(26))).toEqual({ ok: false, hint: TOO_MANY_MARKS_HINT });
  });

  it('bounds anything else that joins into one character: a run of Hangul jamo is not one paid character', () => {
    const jamo = '\u1100'.repeat(40) + '\u1161'; // leading consonants join without limit
    expect(textLength(jamo)).toBe(1);
    expect(refusalOf(jamo, author())).toBe(TOO_MANY_MARKS_HINT);
    expect(refusalOf('\u1100\u1161\u11A8', author())).toBeNull(); // a syllable spelt in its three jamo
  });

  it('so no accepted text is more than three code points a character: its cost follows what it stores', () => {
    const heaviest = `e${ACUTE}${TILDE}`.repeat(MAX_MESSAGE_LENGTH);
    expect(checkText(heaviest, author())).toEqual({ ok: true });
    expect([...heaviest].length).toBe(3 * textLength(heaviest));
  });

  it('leaves the emojis of the catalogue and their variation selectors alone', () => {
    const w = owning(26, ['UNCOMMON_EMOJI_HEART', 'UNCOMMON_EMOJI_SUN', 'ELUSIVE_EMOJI_COMET']);
    for (const e of ['❤️', '❤', '☀️', '☄️']) expect(refusalOf(e, w)).toBeNull();
    expect(refusalOf('👨‍👩‍👧', w)).toBe('No one can write 👨‍👩‍👧');
  });
});

describe("the author's all-letters mode", () => {
  it('writes every letter, case and printable character without owning a letter', () => {
    const w = author();
    expect(checkText('Quiz, Jumbo! 42? Yes - @all #2', w)).toEqual({ ok: true });
    for (const c of ['z', 'Z', ' ', '.', '7', '@']) expect(refusalOf(c, w)).toBeNull();
  });

  it('still needs the emojis it writes', () => {
    expect(refusalOf('🔥', author())).toBe("You don't own Fire");
    expect(refusalOf('🔥', author(['UNCOMMON_EMOJI_FIRE']))).toBeNull();
  });
});

describe('checkText', () => {
  const w = owning(26, ['UNCOMMON_EMOJI_FIRE']);

  it('refuses an empty text and a text of spaces only', () => {
    expect(checkText('', w)).toEqual({ ok: false, hint: EMPTY_TEXT_HINT });
    expect(checkText('   ', w)).toEqual({ ok: false, hint: EMPTY_TEXT_HINT });
    // Spaces only is empty before it is a question of owning space.
    expect(checkText('  ', owning(0))).toEqual({ ok: false, hint: EMPTY_TEXT_HINT });
  });

  it('takes 500 characters and refuses 501', () => {
    expect(MAX_MESSAGE_LENGTH).toBe(500);
    expect(checkText('a'.repeat(500), w)).toEqual({ ok: true });
    expect(checkText('a'.repeat(501), w)).toEqual({ ok: false, hint: TOO_LONG_HINT });
    expect(TOO_LONG_HINT).toBe('At most 500 characters');
  });

  it('counts the 500 in characters a reader sees: 500 emojis of two code units each pass', () => {
    const text = '🔥'.repeat(500);
    expect(text.length).toBe(1000);
    expect(checkText(text, w)).toEqual({ ok: true });
    expect(checkText(`${text}a`, w)).toEqual({ ok: false, hint: TOO_LONG_HINT });
  });

  it('checks the length before the characters', () => {
    expect(checkText('🐸'.repeat(501), w)).toEqual({ ok: false, hint: TOO_LONG_HINT });
  });

  it('accepts leading and trailing spaces around a writable text', () => {
    expect(checkText('  abc  ', owning(5))).toEqual({ ok: true });
  });
});

describe('chatCost', () => {
  it('is (floor(length / 10) + 1) × the unit price', () => {
    expect(chatCost('', 5)).toBe(5);
    expect(chatCost('a', 5)).toBe(5);
    expect(chatCost('a'.repeat(9), 5)).toBe(5);
    expect(chatCost('a'.repeat(10), 5)).toBe(10);
    expect(chatCost('a'.repeat(19), 5)).toBe(10);
    expect(chatCost('a'.repeat(20), 7)).toBe(21);
    expect(chatCost('a'.repeat(500), 1)).toBe(51);
  });

  it('counts an emoji of several code points as one character', () => {
    expect(chatCost('❤️'.repeat(9), 3)).toBe(3);
    expect(chatCost('👨‍👩‍👧'.repeat(10), 3)).toBe(6);
  });
});
