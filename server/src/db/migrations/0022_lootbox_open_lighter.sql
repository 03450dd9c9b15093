-- A lighter lootbox opening (docs/decisions.md, "Issue 28: a lighter lootbox opening"; docs/performance.md,
-- "Lootboxes"): the same opening as migration 0020, byte for byte (server/src/modules/lootboxes/draw.test.ts holds
-- lootbox_draw to common/fairness.ts drawOpening), with less work per call.
--
-- lootbox_draw: the HMAC's inner and outer keys and the message prefix '{clientSeed}:{nonce}:' once per opening, the
-- two blocks every opening needs made up front (a third only on demand, as before), tierAt as one CASE over the
-- running weights instead of a loop, the tiers, items and sides drawn in two loops without per-draw branching. Same
-- stream, same rejection sampling, same order of draws (0020's comment describes it).
--
-- lootbox_open: the elusive units on sale read in the seed's update (RETURNING) instead of a statement of their own,
-- and the draw called as an expression instead of a query; everything else as in 0020.

CREATE OR REPLACE FUNCTION lootbox_draw(
  p_server_seed text, p_client_seed text, p_nonce integer, p_weights bigint[], p_version integer,
  OUT loot_sequence text[], OUT open_sequence text, OUT loot_found boolean
)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_key bytea := decode(p_server_seed, 'hex');
  v_inner bytea;
  v_outer bytea;
  v_prefix bytea := convert_to(p_client_seed || ':' || p_nonce || ':', 'UTF8');
  v_ints bytea;
  v_at integer := 0;
  v_c1 bigint; v_c2 bigint; v_c3 bigint; v_c4 bigint; v_total bigint;
  v_tier_limit bigint;
  v_n integer;
  v_limit bigint;
  v_u bigint;
  v_tier integer;
  v_items text[];
BEGIN
  -- The running weights (tierAt's bounds) and the tiers' rejection bound, once per opening.
  IF array_length(p_weights, 1) IS DISTINCT FROM 5 THEN RAISE EXCEPTION 'five tier weights expected'; END IF;
  v_c1 := p_weights[1]; v_c2 := v_c1 + p_weights[2]; v_c3 := v_c2 + p_weights[3]; v_c4 := v_c3 + p_weights[4];
  v_total := v_c4 + p_weights[5];
  IF v_total < 1 OR v_total > 4294967296 THEN RAISE EXCEPTION 'bad range %', v_total; END IF;
  v_tier_limit := 4294967296 - 4294967296 % v_total;
  IF length(v_key) > 64 THEN v_key := sha256(v_key); END IF;
  v_inner := substring(varbit_send(('x' || rpad(encode(v_key, 'hex'), 128, '0'))::bit(512)
                                   # ('x' || repeat('36', 64))::bit(512)) FROM 5);
  v_outer := substring(varbit_send(('x' || rpad(encode(v_key, 'hex'), 128, '0'))::bit(512)
                                   # ('x' || repeat('5c', 64))::bit(512)) FROM 5);
  -- Blocks 0 and 1 are always needed (fifteen ints); a third only after rejections.
  v_ints := sha256(v_outer || sha256(v_inner || v_prefix || '\x30'::bytea))
         || sha256(v_outer || sha256(v_inner || v_prefix || '\x31'::bytea));
  loot_sequence := '{}';
  open_sequence := '';
  loot_found := false;
  -- tier₁, item₁, …, tier₅, item₅: each int read at v_at (a byte offset), redrawn at or above the bound.
  FOR i IN 1..5 LOOP
    LOOP
      IF v_at >= length(v_ints) THEN
        v_ints := v_ints || sha256(v_outer || sha256(v_inner || v_prefix || convert_to((v_at / 32)::text, 'UTF8')));
      END IF;
      v_u := (get_byte(v_ints, v_at)::bigint << 24) | (get_byte(v_ints, v_at + 1) << 16)
           | (get_byte(v_ints, v_at + 2) << 8) | get_byte(v_ints, v_at + 3);
      v_at := v_at + 4;
      EXIT WHEN v_u < v_tier_limit;
    END LOOP;
    v_u := v_u % v_total;
    v_tier := CASE WHEN v_u < v_c1 THEN 0 WHEN v_u < v_c2 THEN 1 WHEN v_u < v_c3 THEN 2 WHEN v_u < v_c4 THEN 3 ELSE 4 END;
    v_items := lootbox_tier_items(p_version, v_tier);
    IF v_items IS NULL THEN RAISE EXCEPTION 'unknown odds version %', p_version; END IF;
    v_n := array_length(v_items, 1);
    v_limit := 4294967296 - 4294967296 % v_n;
    LOOP
      IF v_at >= length(v_ints) THEN
        v_ints := v_ints || sha256(v_outer || sha256(v_inner || v_prefix || convert_to((v_at / 32)::text, 'UTF8')));
      END IF;
      v_u := (get_byte(v_ints, v_at)::bigint << 24) | (get_byte(v_ints, v_at + 1) << 16)
           | (get_byte(v_ints, v_at + 2) << 8) | get_byte(v_ints, v_at + 3);
      v_at := v_at + 4;
      EXIT WHEN v_u < v_limit;
    END LOOP;
    loot_sequence := loot_sequence || v_items[v_u % v_n + 1];
    loot_found := loot_found OR v_tier >= 2;
  END LOOP;
  -- side₁ … side₅: uniform(2) rejects nothing (2^32 mod 2 = 0) and is the int's lowest bit.
  FOR i IN 1..5 LOOP
    IF v_at >= length(v_ints) THEN
      v_ints := v_ints || sha256(v_outer || sha256(v_inner || v_prefix || convert_to((v_at / 32)::text, 'UTF8')));
    END IF;
    open_sequence := open_sequence || CASE WHEN get_byte(v_ints, v_at + 3) & 1 = 0 THEN 'L' ELSE 'R' END;
    v_at := v_at + 4;
  END LOOP;
END
$$;
--> statement-breakpoint

CREATE OR REPLACE FUNCTION lootbox_open(p_user bigint, p_version integer, p_at timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_keys integer;
  v_boxes integer;
  v_has_seed boolean;
  v_seed bigint;
  v_server_seed text;
  v_client_seed text;
  v_nonce integer;
  v_units bigint;
  v_weights bigint[];
  v_draw record;
  v_codes text[];
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
      RETURNING id, server_seed, client_seed, next_nonce - 1,
                (SELECT coalesce(sum(held), 0) FROM inventories WHERE item_type LIKE 'ELUSIVE\_%' AND held > 0)
      INTO v_seed, v_server_seed, v_client_seed, v_nonce, v_units;
    EXIT WHEN FOUND;
  END LOOP;
  IF v_seed IS NULL THEN RAISE EXCEPTION 'no seed in use for user %', p_user; END IF;

  v_weights := lootbox_weights(v_units);
  v_draw := lootbox_draw(v_server_seed, v_client_seed, v_nonce, v_weights, p_version);
  v_codes := v_draw.loot_sequence;

  INSERT INTO lootbox_openings (user_id, seed_id, nonce, client_seed, odds_version, weights, loot_sequence,
                                open_sequence, loot_found, opened_at)
    VALUES (p_user, v_seed, v_nonce, v_client_seed, p_version,
            jsonb_build_object('LETTER', v_weights[1], 'UNCOMMON', v_weights[2], 'RARE', v_weights[3],
                               'EPIC', v_weights[4], 'ELUSIVE', v_weights[5]),
            to_jsonb(v_codes), v_draw.open_sequence, v_draw.loot_found, p_at)
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

  RETURN jsonb_build_object('lootSequence', to_jsonb(v_codes), 'openSequence', v_draw.open_sequence,
                            'lootFound', v_draw.loot_found, 'openingId', v_opening, 'nonce', v_nonce, 'keyCount', v_keys, 'lootBoxCount', v_boxes);
END
$$;
