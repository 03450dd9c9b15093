-- Less work per market order (docs/decisions.md, "Issue 28: less work per market order"): the same orders, answers,
-- events, pushes and books as migration 0021's market_order, with fewer statements run inside it and fewer rows and
-- index entries written. Each statement PL/pgSQL runs costs its executor's start and end, and those with arrays in
-- them were planned again at every call; the order's own reads and writes are a small part of its time.
--  * notification_events loses its index by user alone: every read names seen or unseen, which the partial indexes
--    serve, and the users' foreign keys are never followed from users' side (no user is deleted);
--  * record_notifications writes a batch of events in one statement: the one INSERT into notification_events and the
--    one place that says what an event folds on, which record_notification (migration 0015) now calls;
--  * market_order reads the item's figures and the taker's position in one statement, the makers' positions and the
--    order's net amount per account in one more, writes the entry with its postings in one, the units' postings with
--    the trades in one, the makers' events in one call, and answers with the figures after in one; the book's
--    statements that would change nothing are skipped;
--  * an entry posts each account once, its net amount (the taker's several fills, the market's fees of each fill):
--    fewer rows, the same sums per entry and per account, which are all anything reads (the statement, the checks).
DROP INDEX "notification_events_user";--> statement-breakpoint

-- Events, each as record_notification took them: the i-th of every array is the i-th event (a shorter array counts
-- as NULLs), inserted in that order; answers how many. What an event folds on, with its topic and user: the picture
-- for comments, replies, likes and overtakes, the comment for reactions, the item for trades; a notice of its own
-- stands alone.
CREATE FUNCTION record_notifications(
  p_users bigint[], p_topics text[], p_actors bigint[], p_pictures bigint[], p_comments bigint[], p_amounts bigint[],
  p_items text[], p_messages text[]
) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_count integer;
BEGIN
  INSERT INTO notification_events (user_id, topic, actor_id, picture_id, comment_id, amount, item, message, target)
    SELECT u, t, a, p, c, n, i, m,
           CASE
             WHEN t IN ('ITEM_SOLD', 'ITEM_BOUGHT') THEN 'i:' || coalesce(i, '')
             WHEN t = 'IMAGE_COMMENT_REACTED' THEN 'c:' || coalesce(c::text, '')
             WHEN t IN ('SYSTEM_MESSAGE', 'MODERATION_DECISION', 'REPORT_OUTCOME', 'APPEAL_DECIDED')
               THEN 's:' || gen_random_uuid()::text
             ELSE 'p:' || coalesce(p::text, '')
           END
      FROM unnest(p_users, p_topics, p_actors, p_pictures, p_comments, p_amounts, p_items, p_messages)
        WITH ORDINALITY AS e(u, t, a, p, c, n, i, m, o)
     ORDER BY o;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END $$;
--> statement-breakpoint

CREATE OR REPLACE FUNCTION record_notification(
  p_user bigint, p_topic text, p_actor bigint, p_picture bigint, p_comment bigint, p_amount bigint, p_item text,
  p_message text
) RETURNS void
LANGUAGE plpgsql AS $$ BEGIN
  PERFORM record_notifications(ARRAY[p_user], ARRAY[p_topic], ARRAY[p_actor], ARRAY[p_picture], ARRAY[p_comment],
                               ARRAY[p_amount], ARRAY[p_item], ARRAY[p_message]);
END $$;
--> statement-breakpoint

-- As in migration 0021: the same arguments, the same answer.
CREATE OR REPLACE FUNCTION market_order(
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
  v_fill_amount bigint[] := '{}';
  v_fills_n integer;
  v_units integer := 0;
  v_escrow_change bigint := 0;
  v_held_change integer := 0;
  v_codes text[] := '{}';
  v_amounts bigint[] := '{}';
  v_net_codes text[] := '{}';
  v_net_amounts bigint[] := '{}';
  v_paid bigint;
  v_entry bigint;
  v_moved bigint;
  v_balances jsonb := '[]';
  v_positions jsonb := '[]';
  v_position jsonb;
  v_fills jsonb := '[]';
  v_told bigint[] := '{}';
  v_tell boolean;
  v_events integer;
  v_topic text := CASE WHEN p_side = 'BUY' THEN 'ITEM_SOLD' ELSE 'ITEM_BOUGHT' END;
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(7100, p_book);
  -- The item's figures (market_figures) and the taker's position (market_position), read in one statement.
  SELECT jsonb_build_object('quantity', coalesce(s.quantity, 0)::int, 'bestSo', s.best,
           'bestBo', (SELECT max(price) FROM market_offers WHERE item_type = p_item AND side = 'BUY')),
         jsonb_build_object('userId', p_taker, 'quantity', coalesce(i.quantity, 0), 'held', coalesce(i.held, 0),
           'balance', coalesce((SELECT balance FROM ledger_accounts WHERE code = 'user:' || p_taker || ':available'), 0),
           'sellOffer', mo.o->'SELL', 'buyOffer', mo.o->'BUY')
    INTO v_before, v_me
    FROM (SELECT sum(quantity) AS quantity, min(price) AS best FROM market_offers
           WHERE item_type = p_item AND side = 'SELL') s
    LEFT JOIN inventories i ON i.user_id = p_taker AND i.item_type = p_item
    LEFT JOIN LATERAL (SELECT jsonb_object_agg(side, jsonb_build_object('price', price, 'quantity', quantity,
                                                                     'since', created_at)) AS o
                         FROM market_offers WHERE user_id = p_taker AND item_type = p_item) mo ON true;
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
    v_fill_amount := v_fill_amount || (v_book_price[n] * v_take);
    v_fills := v_fills || jsonb_build_array(jsonb_build_object('offerId', v_book_id[n], 'makerId', v_book_user[n],
      'price', v_book_price[n], 'quantity', v_take, 'fee', v_book_price[n] * v_take * p_fee_bps / 10000));
    v_rest := v_rest - v_take;
    v_units := v_units + v_take;
  END LOOP;
  v_fills_n := cardinality(v_fill_offer);
  IF p_kind = 'offer' THEN
    IF v_buy THEN v_escrow_change := p_price * v_rest - v_escrowed; ELSE v_held_change := v_rest - v_held; END IF;
  ELSE
    v_rest := 0;
  END IF;

  -- The money, as before: each fill's price from the payer (the buying taker's balance, or the buying maker's
  -- escrow) to the seller, less the fee to the market's fees; then what the taker's new bid escrows.
  FOR n IN 1 .. v_fills_n LOOP
    v_paid := v_fill_amount[n];
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

  -- Before anything is written: each maker's position before the order (as market_position reads it; one
  -- statement a maker, whose plan is kept, where one over all of them would be planned again at every call), then
  -- each account's net amount, in code order (the ledger's fixed lock order).
  FOR n IN 1 .. v_fills_n LOOP
    SELECT jsonb_build_object('userId', v_fill_maker[n], 'quantity', coalesce(i.quantity, 0),
             'held', coalesce(i.held, 0),
             'balance', coalesce((SELECT balance FROM ledger_accounts
                                   WHERE code = 'user:' || v_fill_maker[n] || ':available'), 0),
             'sellOffer', mo.o->'SELL', 'buyOffer', mo.o->'BUY')
      INTO v_position
      FROM (SELECT 1) AS one
      LEFT JOIN inventories i ON i.user_id = v_fill_maker[n] AND i.item_type = p_item
      LEFT JOIN LATERAL (SELECT jsonb_object_agg(side, jsonb_build_object('price', price, 'quantity', quantity,
                                                                       'since', created_at)) AS o
                           FROM market_offers WHERE user_id = v_fill_maker[n] AND item_type = p_item) mo ON true;
    v_positions := v_positions || jsonb_build_array(v_position);
  END LOOP;
  v_positions := jsonb_build_array(v_me) || v_positions;
  IF cardinality(v_codes) > 0 THEN
    SELECT coalesce(array_agg(code ORDER BY code), '{}'), coalesce(array_agg(delta ORDER BY code), '{}')
      INTO v_net_codes, v_net_amounts
      FROM (SELECT code, sum(amount) AS delta FROM unnest(v_codes, v_amounts) AS p(code, amount)
             GROUP BY code HAVING sum(amount) <> 0) t;
  END IF;

  IF cardinality(v_codes) > 0 THEN
    -- As ledger.post: each user account moves by its net amount, in code order, only if it stays at or above zero.
    FOR n IN 1 .. cardinality(v_net_codes) LOOP
      CONTINUE WHEN v_net_codes[n] NOT LIKE 'user:%';
      UPDATE ledger_accounts SET balance = balance + v_net_amounts[n]
        WHERE code = v_net_codes[n] AND balance + v_net_amounts[n] >= 0 RETURNING balance INTO v_moved;
      IF NOT FOUND THEN
        SELECT balance INTO v_moved FROM ledger_accounts WHERE code = v_net_codes[n];
        IF NOT FOUND THEN RAISE EXCEPTION 'no account %', v_net_codes[n]; END IF;
        RAISE EXCEPTION USING ERRCODE = 'MK001', MESSAGE = 'market order refused',
          DETAIL = jsonb_build_object('refused', 'short', 'missing', -v_net_amounts[n] - v_moved)::text;
      END IF;
      v_balances := v_balances || jsonb_build_array(jsonb_build_array(v_net_codes[n], v_moved));
    END LOOP;
    -- The entry and its postings, one an account, in one statement.
    WITH e AS (
      INSERT INTO journal_entries (kind, user_id, resource_id)
        VALUES (CASE WHEN v_units = 0 THEN 'ESCROW' WHEN v_buy THEN 'ITEM_BUY' ELSE 'ITEM_SELL' END, p_taker, p_item)
        RETURNING id),
    p AS (
      INSERT INTO postings (entry_id, account_code, amount)
        SELECT e.id, c, a FROM e, unnest(v_net_codes, v_net_amounts) WITH ORDINALITY AS x(c, a, o) ORDER BY o)
    SELECT id INTO v_entry FROM e;
  END IF;

  -- The units, guarded as ledger/items.ts guards them: a maker who sold gives up units their offer held, a maker who
  -- bought gains them, the taker the other way; the taker's sell offer holds what rests. A take or a hold is guarded.
  FOR n IN 1 .. v_fills_n LOOP
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
    -- The units' postings (each maker's, then the taker's), each fill as a trade, and each maker's event
    -- (record_notifications), in one statement.
    WITH ip AS (
      INSERT INTO item_postings (entry_id, user_id, item_type, quantity)
        SELECT v_entry, m, p_item, CASE WHEN v_buy THEN -q ELSE q END
          FROM unnest(v_fill_maker || p_taker, v_fill_quantity || (-v_units)) WITH ORDINALITY AS f(m, q, o) ORDER BY o),
    tr AS (
      INSERT INTO trades (item_type, price, quantity, buyer_id, seller_id, fee, taker_side, entry_id, created_at)
        SELECT p_item, pr, q, CASE WHEN v_buy THEN p_taker ELSE m END, CASE WHEN v_buy THEN m ELSE p_taker END, fee,
               p_side, v_entry, p_now
          FROM unnest(v_fill_maker, v_fill_price, v_fill_quantity, v_fill_fee) WITH ORDINALITY AS f(m, pr, q, fee, o)
          ORDER BY o)
    SELECT record_notifications(v_fill_maker, array_fill(v_topic, ARRAY[v_fills_n]),
                                array_fill(p_taker, ARRAY[v_fills_n]), '{}', '{}', v_fill_amount,
                                array_fill(p_item, ARRAY[v_fills_n]), '{}')
      INTO v_events;
  END IF;

  -- The book: filled offers shrink or go; the taker's own offer on its side becomes what rests (a new offer, behind
  -- older ones at its price) or goes.
  FOR n IN 1 .. v_fills_n LOOP
    IF v_fill_left[n] = 0 THEN
      DELETE FROM market_offers WHERE id = v_fill_offer[n];
    ELSE
      UPDATE market_offers SET quantity = v_fill_left[n] WHERE id = v_fill_offer[n];
    END IF;
  END LOOP;
  IF p_kind = 'offer' THEN
    IF v_rest > 0 THEN
      INSERT INTO market_offers (user_id, item_type, side, price, quantity, created_at)
        VALUES (p_taker, p_item, p_side, p_price, v_rest, p_now)
        ON CONFLICT (user_id, item_type, side) DO UPDATE
          SET price = excluded.price, quantity = excluded.quantity, created_at = excluded.created_at;
    ELSIF jsonb_typeof(v_me->CASE WHEN v_buy THEN 'buyOffer' ELSE 'sellOffer' END) = 'object' THEN
      DELETE FROM market_offers WHERE user_id = p_taker AND item_type = p_item AND side = p_side;
    END IF;
  END IF;

  -- Who is told (their sockets after the commit, their devices now): each maker who did not block the taker; and
  -- their pushes, as push.repository.ts queuePushes queues them: each device whose session is alive and whose user did
  -- not switch the type off, the text as common/push-messages.ts words it, with the taker's name now. One statement a
  -- maker.
  FOR n IN 1 .. v_fills_n LOOP
    WITH told AS (
      SELECT NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = v_fill_maker[n] AND b.blocked_id = p_taker)
        AS yes),
    pushed AS (
      INSERT INTO push_outbox (subscription_id, payload, next_attempt_at, expires_at)
        SELECT s.id, market_push(v_topic, (SELECT username FROM users WHERE id = p_taker), v_fill_amount[n], p_item,
                                 p_item_name), p_now, p_now + make_interval(secs => p_push_ttl)
          FROM told, push_subscriptions s
          JOIN sessions se ON se.token_hash = s.session_hash AND se.expires_at > p_now
         WHERE told.yes AND s.user_id = v_fill_maker[n]
           AND NOT EXISTS (SELECT 1 FROM push_muted mu WHERE mu.user_id = v_fill_maker[n] AND mu.type = v_topic)
         ORDER BY s.id)
    SELECT yes INTO v_tell FROM told;
    IF v_tell THEN v_told := v_told || v_fill_maker[n]; END IF;
  END LOOP;

  -- The answer, with the figures after: units on sale moved only by what the order took from sell offers or did to
  -- the taker's own (no second sum over the book); the best prices read again from the index; the taker's available
  -- balance read last.
  RETURN jsonb_build_object(
    'market', v_before,
    'after', jsonb_build_object(
      'quantity', (v_before->>'quantity')::integer + CASE
        WHEN v_buy THEN -v_units
        WHEN p_kind = 'offer' THEN v_rest - coalesce((v_me->'sellOffer'->>'quantity')::integer, 0)
        ELSE 0 END,
      'bestSo', (SELECT min(price) FROM market_offers WHERE item_type = p_item AND side = 'SELL'),
      'bestBo', (SELECT max(price) FROM market_offers WHERE item_type = p_item AND side = 'BUY')),
    'positions', v_positions, 'fills', v_fills,
    'rest', v_rest, 'heldChange', v_held_change, 'entryId', v_entry, 'balances', v_balances, 'told', v_told,
    'balance', coalesce((SELECT balance FROM ledger_accounts WHERE code = 'user:' || p_taker || ':available'), 0));
END
$$;
