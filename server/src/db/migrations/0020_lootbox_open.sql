-- A lootbox opening as one server-side function (docs/decisions.md, "Issue 28: a lootbox opening in one call"): the
-- box and the key taken, the seed's next nonce, the tier weights, the provably fair draw, the opening's record and its
-- five items minted through an item entry, in one call. The rules are those of common/fairness.ts (tierWeights,
-- drawOpening: HMAC-SHA256 blocks, uniform, tierAt, openingFromInts, tierItems) and of the ledger's postItems
-- (server/src/ledger/items.ts); server/src/modules/lootboxes/draw.test.ts holds these functions to them over random
-- seeds, nonces and weights. Only server/src/modules/lootboxes/lootboxes.commands.ts calls lootbox_open. Written
-- for PostgreSQL 15+ and the embedded database alike: built-in sha256 only, no extension.

-- Each tier's item codes at an odds version (common/fairness.ts tierItems), in draw order; p_tier is the tier's index
-- in TIERS (0 LETTER … 4 ELUSIVE). NULL for a version this function does not know.
CREATE FUNCTION lootbox_tier_items(p_version integer, p_tier integer) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_version = 1 THEN CASE p_tier
    WHEN 0 THEN ARRAY['COMMON_LETTER_A', 'COMMON_LETTER_B', 'COMMON_LETTER_C', 'COMMON_LETTER_D', 'COMMON_LETTER_E',
      'COMMON_LETTER_F', 'COMMON_LETTER_G', 'COMMON_LETTER_H', 'COMMON_LETTER_I', 'COMMON_LETTER_J', 'COMMON_LETTER_K',
      'COMMON_LETTER_L', 'COMMON_LETTER_M', 'COMMON_LETTER_N', 'COMMON_LETTER_O', 'COMMON_LETTER_P', 'COMMON_LETTER_Q',
      'COMMON_LETTER_R', 'COMMON_LETTER_S', 'COMMON_LETTER_T', 'COMMON_LETTER_U', 'COMMON_LETTER_V', 'COMMON_LETTER_W',
      'COMMON_LETTER_X', 'COMMON_LETTER_Y', 'COMMON_LETTER_Z']
    WHEN 1 THEN ARRAY['UNCOMMON_EMOJI_GRINNING', 'UNCOMMON_EMOJI_HEART', 'UNCOMMON_EMOJI_THUMBS_UP',
      'UNCOMMON_EMOJI_FIRE', 'UNCOMMON_EMOJI_STAR', 'UNCOMMON_EMOJI_SUN', 'UNCOMMON_EMOJI_CAT', 'UNCOMMON_EMOJI_PIZZA',
      'UNCOMMON_EMOJI_CLAPPING', 'UNCOMMON_EMOJI_LAUGHING']
    WHEN 2 THEN ARRAY['RARE_EMOJI_ROCKET', 'RARE_EMOJI_RAINBOW', 'RARE_EMOJI_GHOST', 'RARE_EMOJI_ALIEN',
      'RARE_EMOJI_ROBOT', 'RARE_EMOJI_OCTOPUS', 'RARE_EMOJI_CACTUS', 'RARE_EMOJI_GUITAR']
    WHEN 3 THEN ARRAY['EPIC_EMOJI_CROWN', 'EPIC_EMOJI_GEM', 'EPIC_EMOJI_TROPHY', 'EPIC_EMOJI_LION',
      'EPIC_EMOJI_VOLCANO', 'EPIC_EMOJI_TOP_HAT', 'EPIC_EMOJI_SHOOTING_STAR', 'EPIC_EMOJI_DRAGON']
    WHEN 4 THEN ARRAY['ELUSIVE_EMOJI_UNICORN', 'ELUSIVE_EMOJI_MILKY_WAY', 'ELUSIVE_EMOJI_CRYSTAL_BALL',
      'ELUSIVE_EMOJI_GENIE', 'ELUSIVE_EMOJI_PEACOCK', 'ELUSIVE_EMOJI_COMET', 'ELUSIVE_EMOJI_ALIEN_MONSTER',
      'ELUSIVE_EMOJI_FOUR_LEAF_CLOVER']
  END END
$$;
--> statement-breakpoint

-- The tier weights with `p_units` elusive units on sale (common/fairness.ts tierWeights), in TIERS order.
CREATE FUNCTION lootbox_weights(p_units bigint) RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  e bigint := 100000 / (1 + greatest(0, p_units));
BEGIN
  RETURN ARRAY[80000000, 15000000, 4200000, 800000 - e, e];
END
$$;
--> statement-breakpoint

-- One opening drawn from the server seed (hex), the client seed and the nonce, with weights in TIERS order and the
-- items of `p_version` (common/fairness.ts drawOpening): its item codes, its sides (L or R each) and whether it found
-- a rare or better item.
--
-- Block r is HMAC-SHA256(seed bytes, UTF-8 of '{clientSeed}:{nonce}:{r}'), HMAC written out on sha256 (RFC 2104: the
-- key padded with zeros to 64 bytes, hashed first if longer, XORed with 0x36 for the inner and 0x5c for the outer
-- hash). Each block gives 8 big-endian unsigned 32-bit ints, used in order; blocks are made as the draw needs them,
-- which gives the same stream as drawOpening's two blocks and more on demand. Draws in order: tier₁, item₁, …,
-- tier₅, item₅, then side₁ … side₅, each `uniform(n)`: an int at or above 2^32 − (2^32 mod n) is drawn again, else
-- its remainder mod n. A tier is the first whose running weight exceeds its draw; rare or better is a loot find.
CREATE FUNCTION lootbox_draw(
  p_server_seed text, p_client_seed text, p_nonce integer, p_weights bigint[], p_version integer,
  OUT loot_sequence text[], OUT open_sequence text, OUT loot_found boolean
)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_key bytea := decode(p_server_seed, 'hex');
  v_inner bytea;
  v_outer bytea;
  v_ints bytea := ''::bytea;
  v_next integer := 0;
  v_total bigint := 0;
  v_n bigint;
  v_limit bigint;
  v_u bigint;
  v_tier integer;
  v_upto bigint;
  v_items text[];
  v_codes text[] := '{}';
  v_found boolean := false;
  v_sides text := '';
  d integer;
BEGIN
  IF array_length(p_weights, 1) IS DISTINCT FROM 5 THEN RAISE EXCEPTION 'five tier weights expected'; END IF;
  FOR t IN 1..5 LOOP v_total := v_total + p_weights[t]; END LOOP;
  IF length(v_key) > 64 THEN v_key := sha256(v_key); END IF;
  -- varbit_send writes a bit string as its length (4 bytes) and its bytes: the XORed key, back as bytes.
  v_inner := substring(varbit_send(('x' || rpad(encode(v_key, 'hex'), 128, '0'))::bit(512)
                                   # ('x' || repeat('36', 64))::bit(512)) FROM 5);
  v_outer := substring(varbit_send(('x' || rpad(encode(v_key, 'hex'), 128, '0'))::bit(512)
                                   # ('x' || repeat('5c', 64))::bit(512)) FROM 5);
  FOR d IN 0..14 LOOP
    -- What this draw is out of: the total weight, the tier's items, or two sides.
    IF d >= 10 THEN
      v_n := 2;
    ELSIF d % 2 = 0 THEN
      v_n := v_total;
    ELSE
      v_items := lootbox_tier_items(p_version, v_tier);
      IF v_items IS NULL THEN RAISE EXCEPTION 'unknown odds version %', p_version; END IF;
      v_n := array_length(v_items, 1);
    END IF;
    IF v_n < 1 OR v_n > 4294967296 THEN RAISE EXCEPTION 'bad range %', v_n; END IF;
    v_limit := 4294967296 - 4294967296 % v_n;
    LOOP
      IF v_next * 4 >= length(v_ints) THEN
        v_ints := v_ints || sha256(v_outer || sha256(v_inner || convert_to(
          p_client_seed || ':' || p_nonce || ':' || (length(v_ints) / 32), 'UTF8')));
      END IF;
      v_u := (get_byte(v_ints, v_next * 4)::bigint << 24) | (get_byte(v_ints, v_next * 4 + 1) << 16)
           | (get_byte(v_ints, v_next * 4 + 2) << 8) | get_byte(v_ints, v_next * 4 + 3);
      v_next := v_next + 1;
      EXIT WHEN v_u < v_limit;
    END LOOP;
    v_u := v_u % v_n;
    IF d >= 10 THEN
      v_sides := v_sides || CASE WHEN v_u = 0 THEN 'L' ELSE 'R' END;
    ELSIF d % 2 = 0 THEN
      v_tier := 0;
      v_upto := p_weights[1];
      WHILE v_u >= v_upto LOOP
        v_tier := v_tier + 1;
        v_upto := v_upto + p_weights[v_tier + 1];
      END LOOP;
      v_found := v_found OR v_tier >= 2;
    ELSE
      v_codes := v_codes || v_items[v_u + 1];
    END IF;
  END LOOP;
  loot_sequence := v_codes;
  open_sequence := v_sides;
  loot_found := v_found;
END
$$;
--> statement-breakpoint

-- Opens one of the user's boxes with one of their keys at odds version p_version. Answers {refused: 'noBox' |
-- 'noKey' | 'noSeed'} having written nothing ('noSeed': the user has no seed yet; the caller makes one, docs/decisions.md),
-- or the opening: {openingId, nonce, keyCount, lootBoxCount, lootSequence, openSequence, lootFound}.
--
-- Locks in the order of the code it replaces: the user's row (the guarded take orders one user's openings), their
-- seed in use (the nonce orders openings and rotations), then the inventories in (user, item) order.
CREATE FUNCTION lootbox_open(p_user bigint, p_version integer, p_at timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_keys integer;
  v_boxes integer;
  v_has_seed boolean;
  v_seed bigint;
  v_server_seed text;
  v_client_seed text;
  v_nonce integer;
  v_weights bigint[];
  v_codes text[];
  v_sides text;
  v_found boolean;
  v_opening bigint;
BEGIN
  SELECT key_count, loot_box_count,
         EXISTS (SELECT 1 FROM fair_seeds WHERE user_id = p_user AND revealed_at IS NULL)
    INTO v_keys, v_boxes, v_has_seed FROM users WHERE id = p_user;
  IF NOT FOUND OR v_boxes < 1 THEN RETURN '{"refused": "noBox"}'; END IF;
  IF v_keys < 1 THEN RETURN '{"refused": "noKey"}'; END IF;
  IF NOT v_has_seed THEN RETURN '{"refused": "noSeed"}'; END IF;

  UPDATE users SET key_count = key_count - 1, loot_box_count = loot_box_count - 1
    WHERE id = p_user AND key_count >= 1 AND loot_box_count >= 1
    RETURNING key_count, loot_box_count INTO v_keys, v_boxes;
  IF NOT FOUND THEN
    -- Another opening took the last one meanwhile.
    SELECT key_count, loot_box_count INTO v_keys, v_boxes FROM users WHERE id = p_user;
    RETURN jsonb_build_object('refused', CASE WHEN NOT FOUND OR v_boxes < 1 THEN 'noBox' ELSE 'noKey' END);
  END IF;

  -- A rotation committed meanwhile ends the seed this statement would have updated, and its next seed is seen by
  -- the next statement: read again after it. A seed in use, once made, is always there.
  FOR attempt IN 1..3 LOOP
    UPDATE fair_seeds SET next_nonce = next_nonce + 1 WHERE user_id = p_user AND revealed_at IS NULL
      RETURNING id, server_seed, client_seed, next_nonce - 1 INTO v_seed, v_server_seed, v_client_seed, v_nonce;
    EXIT WHEN FOUND;
  END LOOP;
  IF v_seed IS NULL THEN RAISE EXCEPTION 'no seed in use for user %', p_user; END IF;

  v_weights := lootbox_weights((SELECT coalesce(sum(held), 0) FROM inventories
                                WHERE item_type LIKE 'ELUSIVE\_%' AND held > 0));
  SELECT d.loot_sequence, d.open_sequence, d.loot_found INTO v_codes, v_sides, v_found
    FROM lootbox_draw(v_server_seed, v_client_seed, v_nonce, v_weights, p_version) AS d;

  INSERT INTO lootbox_openings (user_id, seed_id, nonce, client_seed, odds_version, weights, loot_sequence,
                                open_sequence, loot_found, opened_at)
    VALUES (p_user, v_seed, v_nonce, v_client_seed, p_version,
            jsonb_build_object('LETTER', v_weights[1], 'UNCOMMON', v_weights[2], 'RARE', v_weights[3],
                               'EPIC', v_weights[4], 'ELUSIVE', v_weights[5]),
            to_jsonb(v_codes), v_sides, v_found, p_at)
    RETURNING id INTO v_opening;

  -- The items, as the ledger's mintLoot posts them: the user's inventories in item order (C order, which is the
  -- order postItems sorts the catalogue's codes in), then one entry whose postings take each item's count from the
  -- mint and give it to the user, items in the order first drawn.
  INSERT INTO inventories (user_id, item_type, quantity)
    SELECT p_user, code, count(*)::integer FROM unnest(v_codes) AS c(code) GROUP BY code ORDER BY code COLLATE "C"
    ON CONFLICT (user_id, item_type) DO UPDATE SET quantity = inventories.quantity + excluded.quantity;
  WITH e AS (INSERT INTO journal_entries (kind, user_id, resource_id) VALUES ('LOOTBOX', p_user, v_opening::text)
             RETURNING id)
  INSERT INTO item_postings (entry_id, user_id, item_type, quantity)
    SELECT e.id, o.owner, c.code, o.sign * c.n
      FROM e,
        (SELECT code, count(*)::integer AS n, min(i) AS first FROM unnest(v_codes) WITH ORDINALITY AS u(code, i)
         GROUP BY code) AS c
        CROSS JOIN (VALUES (NULL::bigint, -1, 0), (p_user, 1, 1)) AS o(owner, sign, k)
      ORDER BY c.first, o.k;

  RETURN jsonb_build_object('lootSequence', to_jsonb(v_codes), 'openSequence', v_sides, 'lootFound', v_found,
                            'openingId', v_opening, 'nonce', v_nonce, 'keyCount', v_keys, 'lootBoxCount', v_boxes);
END
$$;
