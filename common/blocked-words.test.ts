import { describe, expect, it } from 'vitest';
import { blockedWordMatcher, normalizeBlockedWords } from './blocked-words';

describe('blocked words', () => {
  it('stores words trimmed, lower-case and once', () => {
    expect(normalizeBlockedWords([' Spam ', 'spam', '', '  ', 'ÉCLAIR'])).toEqual(['spam', 'éclair']);
  });

  it('matches case-insensitively as a whole word', () => {
    const match = blockedWordMatcher(['spam', 'ass']);
    expect(match('Buy SPAM now')).toBe('spam');
    expect(match('spam')).toBe('spam');
    expect(match('spam!')).toBe('spam');
    expect(match('spammer')).toBeNull();
    expect(match('first class')).toBeNull();
    expect(match('an ass.')).toBe('ass');
    expect(match('nothing here')).toBeNull();
    // An underscore parts words, as in a nickname; a digit does not.
    expect(match('spam_king')).toBe('spam');
    expect(match('spam2')).toBeNull();
  });

  it('knows the letters of every script', () => {
    const match = blockedWordMatcher(['éclair', 'дурак']);
    expect(match('un ÉCLAIR')).toBe('éclair');
    expect(match('éclairs')).toBeNull();
    expect(match('ты Дурак')).toBe('дурак');
    expect(match('дураки')).toBeNull();
    // A letter before the word (é) makes it part of a longer word.
    expect(blockedWordMatcher(['clair'])('éclair')).toBeNull();
  });

  it('takes regular expression characters as themselves', () => {
    const match = blockedWordMatcher(['a.b', '$$$', 'c++', '(x)']);
    expect(match('axb')).toBeNull();
    expect(match('say a.b now')).toBe('a.b');
    expect(match('win$$$')).toBe('$$$');
    expect(match('I like c++')).toBe('c++');
    expect(match('(x)')).toBe('(x)');
  });

  it('matches phrases, and nothing with an empty list', () => {
    expect(blockedWordMatcher(['bad word'])('a BAD WORD here')).toBe('bad word');
    expect(blockedWordMatcher([])('anything')).toBeNull();
  });
});
