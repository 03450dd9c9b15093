-- The ledger's entries as functions of the database (docs/decisions.md, "Issue 28: the ledger spend in one round
-- trip"): a spend or any balanced entry in one call, so that a spend in a transaction of its own is one round trip
-- (BEGIN, the call and COMMIT as one simple query: server/src/db/one-call.ts) and a short balance is answered in
-- the same call, having written nothing. The rules are the ledger's (server/src/ledger/ledger.ts): user accounts
-- (`user:…`, guarded) move by their net amount in code order, the fixed lock order, each only if it stays at or
-- above zero; system accounts are never updated (their balance is the sum of their postings). A spend's split is
-- common/goodwill.ts's (goodwillShare, spenderCause); server/src/ledger/spend.test.ts holds ledger_spend to it.
-- Both answer {entryId, balances: [[code, balance], …]} (the user accounts moved, their new balances) or
-- {short: code, missing: cents}. Only server/src/ledger/ledger.ts and commands.ts call them. (In PL/pgSQL, as
-- market_order: its statements are planned once per connection.)

-- Any balanced entry: p_codes[i] moves by p_amounts[i] (cents, never 0, summing to 0).
CREATE FUNCTION ledger_post(
  p_kind text, p_user bigint, p_resource text, p_memo jsonb, p_codes text[], p_amounts bigint[]
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_account record;
  v_moved bigint;
  v_done text[] := '{}';
  v_done_delta bigint[] := '{}';
  v_balances jsonb := '[]';
  v_entry bigint;
  n integer;
BEGIN
  IF coalesce(cardinality(p_codes), 0) < 2 OR cardinality(p_codes) <> coalesce(cardinality(p_amounts), 0)
    OR EXISTS (SELECT 1 FROM unnest(p_codes, p_amounts) AS p(code, amount)
               WHERE p.code IS NULL OR p.amount IS NULL OR p.amount = 0)
    OR (SELECT sum(a) FROM unnest(p_amounts) AS a) <> 0 THEN
    RAISE EXCEPTION 'not a balanced entry: % %', p_codes, p_amounts;
  END IF;
  FOR v_account IN SELECT code, sum(amount) AS delta FROM unnest(p_codes, p_amounts) AS p(code, amount)
    WHERE code LIKE 'user:%' GROUP BY code HAVING sum(amount) <> 0 ORDER BY code
  LOOP
    UPDATE ledger_accounts SET balance = balance + v_account.delta
      WHERE code = v_account.code AND balance + v_account.delta >= 0 RETURNING balance INTO v_moved;
    IF NOT FOUND THEN
      SELECT balance INTO v_moved FROM ledger_accounts WHERE code = v_account.code;
      IF NOT FOUND THEN RAISE EXCEPTION 'no account %', v_account.code; END IF;
      -- The accounts already moved go back: their rows are locked by this transaction, so nobody saw them move,
      -- and the transaction may commit (a call of its own) with nothing written.
      FOR n IN 1 .. cardinality(v_done) LOOP
        UPDATE ledger_accounts SET balance = balance - v_done_delta[n] WHERE code = v_done[n];
      END LOOP;
      RETURN jsonb_build_object('short', v_account.code, 'missing', -v_account.delta - v_moved);
    END IF;
    v_done := v_done || v_account.code;
    v_done_delta := v_done_delta || v_account.delta;
    v_balances := v_balances || jsonb_build_array(jsonb_build_array(v_account.code, v_moved));
  END LOOP;
  INSERT INTO journal_entries (kind, user_id, resource_id, memo) VALUES (p_kind, p_user, p_resource, p_memo)
    RETURNING id INTO v_entry;
  INSERT INTO postings (entry_id, account_code, amount)
    SELECT v_entry, p.code, p.amount FROM unnest(p_codes, p_amounts) WITH ORDINALITY AS p(code, amount, o) ORDER BY o;
  RETURN jsonb_build_object('entryId', v_entry, 'balances', v_balances);
END $$;
--> statement-breakpoint

-- A spend (docs/product.md#goodwill): p_user's available money goes down by p_amount, goodwillShare (half, rounded
-- down) to the payable account of the user's cause (spenderCause: the chosen one, else OPEN_SOURCE, the default),
-- the rest to revenue. One guarded account, so one guarded update: a short balance writes nothing.
CREATE FUNCTION ledger_spend(p_user bigint, p_amount bigint, p_kind text, p_resource text, p_memo jsonb)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_code text := 'user:' || p_user || ':available';
  v_share bigint;
  v_cause text;
  v_balance bigint;
  v_entry bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RAISE EXCEPTION 'bad spend amount %', p_amount; END IF;
  v_share := p_amount / 2;
  -- Read before the balance's row lock is taken, so the lock is held for no more than the writes and the commit.
  SELECT CASE WHEN u.good_will IN ('THIRD_COUNTRY', 'ENVIRONMENTAL', 'HUMAN_RIGHTS', 'SCIENCE', 'POLITICS',
                                   'OPEN_SOURCE') THEN u.good_will ELSE 'OPEN_SOURCE' END
    INTO v_cause FROM users u WHERE u.id = p_user;
  UPDATE ledger_accounts SET balance = balance - p_amount WHERE code = v_code AND balance >= p_amount
    RETURNING balance INTO v_balance;
  IF NOT FOUND THEN
    SELECT balance INTO v_balance FROM ledger_accounts WHERE code = v_code;
    IF NOT FOUND THEN RAISE EXCEPTION 'no account %', v_code; END IF;
    RETURN jsonb_build_object('short', v_code, 'missing', p_amount - v_balance);
  END IF;
  INSERT INTO journal_entries (kind, user_id, resource_id, memo) VALUES (p_kind, p_user, p_resource, p_memo)
    RETURNING id INTO v_entry;
  INSERT INTO postings (entry_id, account_code, amount)
    SELECT v_entry, p.code, p.amount
    FROM (VALUES (1, v_code, -p_amount), (2, 'platform:revenue', p_amount - v_share),
                 (3, 'goodwill:' || v_cause || ':payable', v_share)) AS p(o, code, amount)
    WHERE p.amount <> 0 ORDER BY p.o;
  RETURN jsonb_build_object('entryId', v_entry, 'balances', jsonb_build_array(jsonb_build_array(v_code, v_balance)));
END $$;
