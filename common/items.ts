/**
 * The item catalogue (docs/product.md#items): every letter and emoji a user can own, write with and trade.
 * The server and the browser import this same module. Lootbox draws index the items of a tier in the order below,
 * so items are only ever appended to a tier: every past opening stays verifiable.
 */

export type Tier = 'LETTER' | 'UNCOMMON' | 'RARE' | 'EPIC' | 'ELUSIVE';

/** Tiers in draw order (docs/product.md#items): the rarity of a tier is its index plus one. */
export const TIERS: readonly Tier[] = ['LETTER', 'UNCOMMON', 'RARE', 'EPIC', 'ELUSIVE'];

export type Rarity = 1 | 2 | 3 | 4 | 5;

export interface Item {
  itemType: string;
  emoji: string;
  name: string;
  rarity: Rarity;
  tier: Tier;
}

/** How each tier is shown (docs/product.md#items: rarity colours). */
export const TIER_STYLE: Record<Tier, { label: string; colour: string }> = {
  LETTER: { label: 'Letter', colour: '#ffffff' },
  UNCOMMON: { label: 'Uncommon', colour: '#8fd3ff' },
  RARE: { label: 'Rare', colour: '#2f6fed' },
  EPIC: { label: 'Epic', colour: '#9b4dff' },
  ELUSIVE: { label: 'Elusive', colour: '#ffd23f' },
};

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

/** [code suffix, emoji, English name] per emoji tier, in draw order. Append only. */
const EMOJIS: Record<Exclude<Tier, 'LETTER'>, readonly (readonly [string, string, string])[]> = {
  UNCOMMON: [
    ['GRINNING', '😀', 'Grinning face'],
    ['HEART', '❤️', 'Red heart'],
    ['THUMBS_UP', '👍', 'Thumbs up'],
    ['FIRE', '🔥', 'Fire'],
    ['STAR', '⭐', 'Star'],
    ['SUN', '☀️', 'Sun'],
    ['CAT', '🐱', 'Cat face'],
    ['PIZZA', '🍕', 'Pizza'],
    ['CLAPPING', '👏', 'Clapping hands'],
    ['LAUGHING', '😂', 'Face with tears of joy'],
  ],
  RARE: [
    ['ROCKET', '🚀', 'Rocket'],
    ['RAINBOW', '🌈', 'Rainbow'],
    ['GHOST', '👻', 'Ghost'],
    ['ALIEN', '👽', 'Alien'],
    ['ROBOT', '🤖', 'Robot'],
    ['OCTOPUS', '🐙', 'Octopus'],
    ['CACTUS', '🌵', 'Cactus'],
    ['GUITAR', '🎸', 'Guitar'],
  ],
  EPIC: [
    ['CROWN', '👑', 'Crown'],
    ['GEM', '💎', 'Gem stone'],
    ['TROPHY', '🏆', 'Trophy'],
    ['LION', '🦁', 'Lion'],
    ['VOLCANO', '🌋', 'Volcano'],
    ['TOP_HAT', '🎩', 'Top hat'],
    ['SHOOTING_STAR', '🌠', 'Shooting star'],
    ['DRAGON', '🐉', 'Dragon'],
  ],
  ELUSIVE: [
    ['UNICORN', '🦄', 'Unicorn'],
    ['MILKY_WAY', '🌌', 'Milky Way'],
    ['CRYSTAL_BALL', '🔮', 'Crystal ball'],
    ['GENIE', '🧞', 'Genie'],
    ['PEACOCK', '🦚', 'Peacock'],
    ['COMET', '☄️', 'Comet'],
    ['ALIEN_MONSTER', '👾', 'Alien monster'],
    ['FOUR_LEAF_CLOVER', '🍀', 'Four leaf clover'],
  ],
};

const rarityOf = (tier: Tier) => (TIERS.indexOf(tier) + 1) as Rarity;

/** Each tier's items, in the fixed order the draw indexes. */
export const ITEMS_BY_TIER: Record<Tier, readonly Item[]> = {
  LETTER: LETTERS.map((l) => ({
    itemType: `COMMON_LETTER_${l}`,
    emoji: l,
    name: `Letter ${l}`,
    rarity: 1,
    tier: 'LETTER',
  })),
  UNCOMMON: emojiTier('UNCOMMON'),
  RARE: emojiTier('RARE'),
  EPIC: emojiTier('EPIC'),
  ELUSIVE: emojiTier('ELUSIVE'),
};

function emojiTier(tier: Exclude<Tier, 'LETTER'>): Item[] {
  return EMOJIS[tier].map(([code, emoji, name]) => ({
    itemType: `${tier}_EMOJI_${code}`,
    emoji,
    name,
    rarity: rarityOf(tier),
    tier,
  }));
}

/** Every item: letters A–Z, then the emoji tiers from uncommon to elusive. */
export const ITEMS: readonly Item[] = TIERS.flatMap((tier) => ITEMS_BY_TIER[tier]);

const BY_TYPE = new Map(ITEMS.map((item) => [item.itemType, item]));
const BY_EMOJI = new Map(ITEMS.filter((i) => i.tier !== 'LETTER').map((item) => [item.emoji, item]));

export const itemOf = (itemType: string): Item | undefined => BY_TYPE.get(itemType);

/**
 * What a screen calls an item: its catalogue name ('Letter F', 'Red heart'), never its code. A code the catalogue
 * does not know (none should reach a screen) reads as 'an unknown item' rather than the code.
 */
export const itemName = (itemType: string): string => BY_TYPE.get(itemType)?.name ?? 'Unknown item';

/** The emoji item written as this text (an emoji of several code points counts as one), if there is one. */
export const emojiItemOf = (text: string): Item | undefined => BY_EMOJI.get(text);

export const isItemType = (value: string): boolean => BY_TYPE.has(value);

/** Rare or better: the finds a lootbox reveal celebrates (`lootFound`). */
export const isLootFind = (item: Item): boolean => item.rarity >= 3;
