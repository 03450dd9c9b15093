-- A market order in one round trip (docs/decisions.md, "Issue 28: a market order in one round trip"): market_order
-- of migrations 0010 and 0013, which now also does what the app did after the call, so that the route's transaction
-- is BEGIN, this one call and COMMIT, sent together (server/src/db/one-call.ts):
--  * the makers told of their fill: each maker who did not block the taker (docs/product.md#blocks) is answered in
--    `told`, for the live newNotification after the commit; the events themselves are recorded as before;
--  * their pushes (docs/product.md#push): one push_outbox row per live device of each told maker who did not switch
--    the topic's type off, worded as common/push-messages.ts words ITEM_SOLD and ITEM_BOUGHT (market_push below,
--    held to it by server/src/ledger/market.test.ts), quoting the taker's name as it is now;
--  * the taker's available balance after the order (`balance`), as the paid answer carries it;
--  * the item's figures after the order from those before and what the order did, not a second sum over the book;
--  * a refusal found after something was written (a guarded account or unit short) raises SQLSTATE MK001 with the
--    refusal as its DETAIL, so that nothing stays: the one call commits whatever the function answered.
-- Two arguments more: the item's name (common/items.ts, for the push's text) and how long a push may wait (seconds).

-- Money as common/money.ts formatMoney shows it: dollars with thousands separators, cents only when there are some.
CREATE FUNCTION market_money(p_cents bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN
  RETURN CASE WHEN p_cents < 0 THEN '-' ELSE '' END || '$' ||
    CASE WHEN abs(p_cents) % 100 = 0 THEN to_char(abs(p_cents) / 100, 'FM999,999,999,999,999,990')
         ELSE to_char(abs(p_cents) / 100.0, 'FM999,999,999,999,999,990.00') END;
END $$;
--> statement-breakpoint

-- The push of an ITEM_SOLD or ITEM_BOUGHT event, as common/push-messages.ts notificationPush words it and
-- JSON.stringify writes it (push.repository.ts queuePushes): its type, title, body and url, each cut as `clip` cuts.
CREATE FUNCTION market_push(p_topic text, p_actor_name text, p_amount bigint, p_item text, p_item_name text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_who text := coalesce(p_actor_name, 'Someone');
  v_title text;
  v_body text;
BEGIN
  IF p_topic = 'ITEM_SOLD' THEN
    v_title := 'Item sold';
    v_body := v_who || ' bought your ' || p_item_name || ' for ' || market_money(p_amount) || '.';
  ELSE
    v_title := 'Item bought';
    v_body := v_who || ' sold you ' || p_item_name || ' for ' || market_money(p_amount) || '.';
  END IF;
  IF char_length(v_body) > 300 THEN v_body := left(v_body, 299) || '…'; END IF;
  RETURN '{"type":' || to_json(p_topic)::text || ',"title":' || to_json(v_title)::text
    || ',"body":' || to_json(v_body)::text || ',"url":' || to_json('/items-detail/' || p_item || '/item-store')::text
    || '}';
END $$;
--> statement-breakpoint

DROP FUNCTION market_order(text, text, integer, text, bigint, bigint, integer, bigint, integer, timestamptz);
--> statement-breakpoint

CREATE FUNCTION market_order(
  p_kind text, p_item text, p_book integer, p_side text, p_taker bigint, p_price bigint, p_quantity integer,
  p_counterparty bigint, p_fee_bps integer, p_now timestamptz, p_item_name text, p_push_ttl integer
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
  v_told bigint[] := '{}';
  v_after jsonb;
  v_name text;
  v_topic text := CASE WHEN p_side = 'BUY' THEN 'ITEM_SOLD' ELSE 'ITEM_BOUGHT' END;
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
        RAISE EXCEPTION USING ERRCODE = 'MK001', MESSAGE = 'market order refused',
          DETAIL = jsonb_build_object('refused', 'short', 'missing', -v_account.delta - v_moved)::text;
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
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'MK001', MESSAGE = 'market order refused',
          DETAIL = jsonb_build_object('refused', 'itemsShort', 'userId', v_fill_maker[n])::text;
      END IF;
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
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'MK001', MESSAGE = 'market order refused',
        DETAIL = jsonb_build_object('refused', 'itemsShort', 'userId', p_taker)::text;
    END IF;
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
    PERFORM record_notification(m, v_topic, p_taker, NULL, NULL, pr * q, p_item, NULL)
      FROM unnest(v_fill_maker, v_fill_price, v_fill_quantity) WITH ORDINALITY AS f(m, pr, q, o) ORDER BY o;
    -- Who is told (their sockets after the commit, their devices now): each maker who did not block the taker.
    SELECT coalesce(array_agg(m ORDER BY o), '{}') INTO v_told
      FROM unnest(v_fill_maker) WITH ORDINALITY AS f(m, o)
     WHERE NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = f.m AND b.blocked_id = p_taker);
    -- Their pushes, as push.repository.ts queuePushes queues them: each device whose session is alive and whose
    -- user did not switch the type off; the text as common/push-messages.ts words it, with the taker's name now.
    IF cardinality(v_told) > 0 THEN
      SELECT username INTO v_name FROM users WHERE id = p_taker;
      INSERT INTO push_outbox (subscription_id, payload, next_attempt_at, expires_at)
        SELECT s.id, market_push(v_topic, v_name, f.pr * f.q, p_item, p_item_name), p_now,
               p_now + make_interval(secs => p_push_ttl)
          FROM unnest(v_fill_maker, v_fill_price, v_fill_quantity) WITH ORDINALITY AS f(m, pr, q, o)
          JOIN push_subscriptions s ON s.user_id = f.m
          JOIN sessions se ON se.token_hash = s.session_hash AND se.expires_at > p_now
         WHERE f.m = ANY(v_told)
           AND NOT EXISTS (SELECT 1 FROM push_muted mu WHERE mu.user_id = f.m AND mu.type = v_topic)
         ORDER BY f.o, s.id;
    END IF;
  END IF;

  SELECT coalesce(jsonb_agg(jsonb_build_object('offerId', o, 'makerId', m, 'price', pr, 'quantity', q, 'fee', fee)
                            ORDER BY i), '[]')
    INTO v_fills
    FROM unnest(v_fill_offer, v_fill_maker, v_fill_price, v_fill_quantity, v_fill_fee) WITH ORDINALITY
      AS f(o, m, pr, q, fee, i);
  -- The figures after: units on sale moved only by what the order took from sell offers or did to the taker's own
  -- (no second sum over the book, which the book's lock would wait on); the best prices read again from the index.
  v_after := jsonb_build_object(
    'quantity', (v_before->>'quantity')::integer + CASE
      WHEN v_buy THEN -v_units
      WHEN p_kind = 'offer' THEN v_rest - coalesce((v_me->'sellOffer'->>'quantity')::integer, 0)
      ELSE 0 END,
    'bestSo', (SELECT min(price) FROM market_offers WHERE item_type = p_item AND side = 'SELL'),
    'bestBo', (SELECT max(price) FROM market_offers WHERE item_type = p_item AND side = 'BUY'));
  RETURN jsonb_build_object(
    'market', v_before, 'after', v_after, 'positions', v_positions, 'fills', v_fills,
    'rest', v_rest, 'heldChange', v_held_change, 'entryId', v_entry, 'balances', v_balances, 'told', v_told,
    'balance', coalesce((SELECT balance FROM ledger_accounts WHERE code = 'user:' || p_taker || ':available'), 0));
END
$$;
