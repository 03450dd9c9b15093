-- The notifications module is the one writer of notification_events, in SQL as in TypeScript (docs/decisions.md,
-- "Issue 23, item 2"): record_notification() is the only statement that inserts an event, and what an event folds
-- on is written here once. The module's insertEvents (notifications.repository.ts) calls it for each event, and
-- market_order (migration 0010, redefined below with nothing else changed) calls it for each fill's maker.

-- What unseen events fold on, with their topic and user: the picture for comments, replies, likes and overtakes
-- (so a busy picture is one line), the comment for reactions, the item for trades; a system message never folds.
CREATE FUNCTION record_notification(
  p_user bigint, p_topic text, p_actor bigint, p_picture bigint, p_comment bigint, p_amount bigint, p_item text,
  p_message text
) RETURNS void
LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO notification_events (user_id, topic, actor_id, picture_id, comment_id, amount, item, message, target)
    VALUES (p_user, p_topic, p_actor, p_picture, p_comment, p_amount, p_item, p_message,
            CASE
              WHEN p_topic IN ('ITEM_SOLD', 'ITEM_BOUGHT') THEN 'i:' || coalesce(p_item, '')
              WHEN p_topic = 'IMAGE_COMMENT_REACTED' THEN 'c:' || coalesce(p_comment::text, '')
              WHEN p_topic = 'SYSTEM_MESSAGE' THEN 's:' || gen_random_uuid()::text
              ELSE 'p:' || coalesce(p_picture::text, '')
            END);
END $$;
--> statement-breakpoint

-- As in 0010, but each fill's maker hears of it through record_notification.
CREATE OR REPLACE FUNCTION market_order(
  p_kind text, p_item text, p_book integer, p_side text, p_taker bigint, p_price bigint, p_quantity integer,
  p_counterparty bigint, p_fee_bps integer, p_now timestamptz
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_buy boolean := p_side = 'BUY';
  v_other text := CASE WHEN p_side = 'BUY' THEN 'SELL' ELSE 'BUY' END;
  v_cancel boolean := p_kind = 'offer' AND p_price = 0 AND p_quantity = 0;
  v_before jsonb;
  v_me jsonb;
  v_quantity integer;
  v_held integer;
  v_balance bigint;
  v_escrowed bigint := 0;
  v_rest integer := 0;
  v_offer record;
  v_book_id bigint[] := '{}';
  v_book_user bigint[] := '{}';
  v_book_price bigint[] := '{}';
  v_book_quantity integer[] := '{}';
  v_take integer;
  v_fill_offer bigint[] := '{}';
  v_fill_maker bigint[] := '{}';
  v_fill_price bigint[] := '{}';
  v_fill_quantity integer[] := '{}';
  v_fill_fee bigint[] := '{}';
  v_fill_left integer[] := '{}';
  v_units integer := 0;
  v_escrow_change bigint := 0;
  v_held_change integer := 0;
  v_codes text[] := '{}';
  v_amounts bigint[] := '{}';
  v_paid bigint;
  v_entry bigint;
  v_account record;
  v_moved bigint;
  v_balances jsonb := '[]';
  v_positions jsonb;
  v_fills jsonb := '[]';
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(7100, p_book);
  v_before := market_figures(p_item);
  v_me := market_position(p_item, p_taker);
  v_quantity := (v_me->>'quantity')::integer;
  v_held := (v_me->>'held')::integer;
  v_balance := (v_me->>'balance')::bigint;
  IF v_buy AND jsonb_typeof(v_me->'buyOffer') = 'object' THEN
    v_escrowed := (v_me->'buyOffer'->>'price')::bigint * (v_me->'buyOffer'->>'quantity')::bigint;
  END IF;

  -- The resting offers the order may take, best first (a side written out, so its partial index serves it).
  IF p_kind = 'offer' AND NOT v_cancel THEN
    IF NOT v_buy AND p_quantity > v_quantity THEN
      RETURN jsonb_build_object('refused', 'ownsFewer', 'owned', v_quantity);
    END IF;
    IF v_buy AND p_price * p_quantity > v_balance + v_escrowed THEN
      RETURN jsonb_build_object('refused', 'short', 'missing', p_price * p_quantity - v_balance - v_escrowed);
    END IF;
    IF v_buy THEN
      FOR v_offer IN SELECT id, user_id, price, quantity FROM market_offers
        WHERE item_type = p_item AND side = 'SELL' AND price <= p_price AND user_id <> p_taker
        ORDER BY price, created_at, id LIMIT p_quantity
      LOOP
        v_book_id := v_book_id || v_offer.id; v_book_user := v_book_user || v_offer.user_id;
        v_book_price := v_book_price || v_offer.price; v_book_quantity := v_book_quantity || v_offer.quantity;
      END LOOP;
    ELSE
      FOR v_offer IN SELECT id, user_id, price, quantity FROM market_offers
        WHERE item_type = p_item AND side = 'BUY' AND price >= p_price AND user_id <> p_taker
        ORDER BY price DESC, created_at, id LIMIT p_quantity
      LOOP
        v_book_id := v_book_id || v_offer.id; v_book_user := v_book_user || v_offer.user_id;
        v_book_price := v_book_price || v_offer.price; v_book_quantity := v_book_quantity || v_offer.quantity;
      END LOOP;
    END IF;
    v_rest := p_quantity;
  ELSIF p_kind = 'market' THEN
    FOR v_offer IN SELECT id, user_id, price, quantity FROM market_offers
      WHERE item_type = p_item AND side = 'SELL' AND user_id <> p_taker ORDER BY price, created_at, id LIMIT 1
    LOOP
        v_book_id := v_book_id || v_offer.id; v_book_user := v_book_user || v_offer.user_id;
        v_book_price := v_book_price || v_offer.price; v_book_quantity := v_book_quantity || v_offer.quantity;
      END LOOP;
    IF cardinality(v_book_id) = 0 THEN RETURN jsonb_build_object('refused', 'nobodySells'); END IF;
    IF v_book_price[1] > p_price THEN
      RETURN jsonb_build_object('refused', 'priceMoved', 'bestSo', v_book_price[1]);
    END IF;
  ELSIF p_kind = 'take' THEN
    FOR v_offer IN SELECT id, user_id, price, quantity FROM market_offers
      WHERE user_id = p_counterparty AND item_type = p_item AND side = v_other
    LOOP
        v_book_id := v_book_id || v_offer.id; v_book_user := v_book_user || v_offer.user_id;
        v_book_price := v_book_price || v_offer.price; v_book_quantity := v_book_quantity || v_offer.quantity;
      END LOOP;
    IF cardinality(v_book_id) = 0 THEN RETURN jsonb_build_object('refused', 'offerGone'); END IF;
    IF v_book_price[1] <> p_price THEN
      RETURN jsonb_build_object('refused', 'offerMoved', 'price', v_book_price[1]);
    END IF;
  END IF;
  IF p_kind IN ('market', 'take') THEN
    IF v_buy AND v_book_price[1] > v_balance THEN
      RETURN jsonb_build_object('refused', 'short', 'missing', v_book_price[1] - v_balance);
    END IF;
    IF NOT v_buy AND v_quantity - v_held < 1 THEN
      RETURN jsonb_build_object('refused', CASE WHEN v_quantity = 0 THEN 'ownsFewer' ELSE 'allOffered' END,
                                'owned', v_quantity);
    END IF;
    v_rest := 1;
  END IF;

  -- The match (common/market.ts, matchOrder): each offer in turn at its own price, as much as both want.
  FOR n IN 1 .. cardinality(v_book_id) LOOP
    EXIT WHEN v_rest = 0;
    v_take := least(v_rest, v_book_quantity[n]);
    v_fill_offer := v_fill_offer || v_book_id[n];
    v_fill_maker := v_fill_maker || v_book_user[n];
    v_fill_price := v_fill_price || v_book_price[n];
    v_fill_quantity := v_fill_quantity || v_take;
    v_fill_fee := v_fill_fee || (v_book_price[n] * v_take * p_fee_bps / 10000);
    v_fill_left := v_fill_left || (v_book_quantity[n] - v_take);
    v_rest := v_rest - v_take;
    v_units := v_units + v_take;
  END LOOP;
  IF p_kind = 'offer' THEN
    IF v_buy THEN v_escrow_change := p_price * v_rest - v_escrowed; ELSE v_held_change := v_rest - v_held; END IF;
  ELSE
    v_rest := 0;
  END IF;

  -- Everyone's position before the order: the taker's and each maker's.
  SELECT jsonb_agg(market_position(p_item, m) ORDER BY o) INTO v_positions
    FROM unnest(v_fill_maker) WITH ORDINALITY AS f(m, o);
  v_positions := jsonb_build_array(v_me) || coalesce(v_positions, '[]');

  -- The money, as the app's order settlement posted it (before this migration): each fill's price from the payer (the buying taker's balance, or the
  -- buying maker's escrow) to the seller, less the fee to the market's fees; then what the taker's new bid escrows.
  FOR n IN 1 .. cardinality(v_fill_offer) LOOP
    v_paid := v_fill_price[n] * v_fill_quantity[n];
    v_codes := v_codes || CASE WHEN v_buy THEN 'user:' || p_taker || ':available'
                               ELSE 'user:' || v_fill_maker[n] || ':escrow' END;
    v_amounts := v_amounts || -v_paid;
    IF v_paid - v_fill_fee[n] <> 0 THEN
      v_codes := v_codes || ('user:' || CASE WHEN v_buy THEN v_fill_maker[n] ELSE p_taker END || ':available');
      v_amounts := v_amounts || (v_paid - v_fill_fee[n]);
    END IF;
    IF v_fill_fee[n] <> 0 THEN
      v_codes := v_codes || 'platform:market-fees'::text;
      v_amounts := v_amounts || v_fill_fee[n];
    END IF;
  END LOOP;
  IF v_escrow_change <> 0 THEN
    v_codes := v_codes || ARRAY['user:' || p_taker || ':available', 'user:' || p_taker || ':escrow'];
    v_amounts := v_amounts || ARRAY[-v_escrow_change, v_escrow_change];
  END IF;

  IF cardinality(v_codes) > 0 THEN
    -- As ledger.post: each user account moves by its net amount, in code order (the fixed lock order), only if it
    -- stays at or above zero.
    FOR v_account IN SELECT code, sum(amount) AS delta FROM unnest(v_codes, v_amounts) AS p(code, amount)
      WHERE code LIKE 'user:%' GROUP BY code HAVING sum(amount) <> 0 ORDER BY code
    LOOP
      UPDATE ledger_accounts SET balance = balance + v_account.delta
        WHERE code = v_account.code AND balance + v_account.delta >= 0 RETURNING balance INTO v_moved;
      IF NOT FOUND THEN
        SELECT balance INTO v_moved FROM ledger_accounts WHERE code = v_account.code;
        IF NOT FOUND THEN RAISE EXCEPTION 'no account %', v_account.code; END IF;
        RETURN jsonb_build_object('refused', 'short', 'missing', -v_account.delta - v_moved);
      END IF;
      v_balances := v_balances || jsonb_build_array(jsonb_build_array(v_account.code, v_moved));
    END LOOP;
    INSERT INTO journal_entries (kind, user_id, resource_id)
      VALUES (CASE WHEN v_units = 0 THEN 'ESCROW' WHEN v_buy THEN 'ITEM_BUY' ELSE 'ITEM_SELL' END, p_taker, p_item)
      RETURNING id INTO v_entry;
    INSERT INTO postings (entry_id, account_code, amount)
      SELECT v_entry, code, amount FROM unnest(v_codes, v_amounts) WITH ORDINALITY AS p(code, amount, o) ORDER BY o;
  END IF;

  -- The units, guarded as ledger/items.ts guards them: a maker who sold gives up units their offer held, a maker who bought
  -- gains them, the taker the other way; the taker's sell offer holds what rests. A take or a hold is guarded.
  FOR n IN 1 .. cardinality(v_fill_offer) LOOP
    IF v_buy THEN
      UPDATE inventories SET quantity = quantity - v_fill_quantity[n], held = held - v_fill_quantity[n]
        WHERE user_id = v_fill_maker[n] AND item_type = p_item
          AND held - v_fill_quantity[n] >= 0 AND quantity - held >= 0;
      IF NOT FOUND THEN RETURN jsonb_build_object('refused', 'itemsShort', 'userId', v_fill_maker[n]); END IF;
    ELSE
      INSERT INTO inventories (user_id, item_type, quantity) VALUES (v_fill_maker[n], p_item, v_fill_quantity[n])
        ON CONFLICT (user_id, item_type) DO UPDATE SET quantity = inventories.quantity + excluded.quantity;
    END IF;
  END LOOP;
  IF v_held_change <> 0 OR (v_units > 0 AND NOT v_buy) THEN
    UPDATE inventories SET quantity = quantity + CASE WHEN v_buy THEN v_units ELSE -v_units END,
                           held = held + v_held_change
      WHERE user_id = p_taker AND item_type = p_item
        AND quantity + CASE WHEN v_buy THEN v_units ELSE -v_units END >= held + v_held_change
        AND held + v_held_change >= 0;
    IF NOT FOUND THEN RETURN jsonb_build_object('refused', 'itemsShort', 'userId', p_taker); END IF;
  ELSIF v_units > 0 THEN
    INSERT INTO inventories (user_id, item_type, quantity) VALUES (p_taker, p_item, v_units)
      ON CONFLICT (user_id, item_type) DO UPDATE SET quantity = inventories.quantity + excluded.quantity;
  END IF;
  IF v_units > 0 THEN
    INSERT INTO item_postings (entry_id, user_id, item_type, quantity)
      SELECT v_entry, m, p_item, CASE WHEN v_buy THEN -q ELSE q END
        FROM unnest(v_fill_maker, v_fill_quantity) WITH ORDINALITY AS f(m, q, o) ORDER BY o;
    INSERT INTO item_postings (entry_id, user_id, item_type, quantity)
      VALUES (v_entry, p_taker, p_item, CASE WHEN v_buy THEN v_units ELSE -v_units END);
  END IF;

  -- The book: filled offers shrink or go; the taker's own offer on its side becomes what rests (a new offer, behind
  -- older ones at its price) or goes. Each fill is a trade, and its maker hears of it.
  DELETE FROM market_offers WHERE id IN (SELECT o FROM unnest(v_fill_offer, v_fill_left) AS f(o, l) WHERE l = 0);
  UPDATE market_offers m SET quantity = f.l FROM unnest(v_fill_offer, v_fill_left) AS f(o, l)
    WHERE m.id = f.o AND f.l > 0;
  IF p_kind = 'offer' THEN
    IF v_rest > 0 THEN
      INSERT INTO market_offers (user_id, item_type, side, price, quantity, created_at)
        VALUES (p_taker, p_item, p_side, p_price, v_rest, p_now)
        ON CONFLICT (user_id, item_type, side) DO UPDATE
          SET price = excluded.price, quantity = excluded.quantity, created_at = excluded.created_at;
    ELSE
      DELETE FROM market_offers WHERE user_id = p_taker AND item_type = p_item AND side = p_side;
    END IF;
  END IF;
  IF v_units > 0 THEN
    INSERT INTO trades (item_type, price, quantity, buyer_id, seller_id, fee, taker_side, entry_id, created_at)
      SELECT p_item, pr, q, CASE WHEN v_buy THEN p_taker ELSE m END, CASE WHEN v_buy THEN m ELSE p_taker END, fee,
             p_side, v_entry, p_now
        FROM unnest(v_fill_maker, v_fill_price, v_fill_quantity, v_fill_fee) WITH ORDINALITY AS f(m, pr, q, fee, o)
        ORDER BY o;
    PERFORM record_notification(m, CASE WHEN v_buy THEN 'ITEM_SOLD' ELSE 'ITEM_BOUGHT' END, p_taker, NULL, NULL,
                                pr * q, p_item, NULL)
      FROM unnest(v_fill_maker, v_fill_price, v_fill_quantity) WITH ORDINALITY AS f(m, pr, q, o) ORDER BY o;
  END IF;

  SELECT coalesce(jsonb_agg(jsonb_build_object('offerId', o, 'makerId', m, 'price', pr, 'quantity', q, 'fee', fee)
                            ORDER BY i), '[]')
    INTO v_fills
    FROM unnest(v_fill_offer, v_fill_maker, v_fill_price, v_fill_quantity, v_fill_fee) WITH ORDINALITY
      AS f(o, m, pr, q, fee, i);
  RETURN jsonb_build_object(
    'market', v_before, 'after', market_figures(p_item), 'positions', v_positions, 'fills', v_fills,
    'rest', v_rest, 'heldChange', v_held_change, 'entryId', v_entry, 'balances', v_balances);
END
$$;
