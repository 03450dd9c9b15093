-- A member's call sent as a transaction of its own in one round trip (db/one-call.ts: a market order or a lootbox
-- opening without an Idempotency-Key) and a suspension never cross (docs/decisions.md, "A suspension waits for the
-- calls in flight"). The call's expression is `coalesce(member_refusal(user, at), the call)`: the call runs only when
-- this answers NULL. It takes the user's suspension lock shared (http/membership.ts SUSPENSION_LOCK; a suspension takes
-- it exclusively before it writes), so it waits for a suspension being written; then it reads the suspension in a
-- statement of its own, whose snapshot sees a suspension that committed meanwhile. A suspended user's answer is
-- {refused: 'suspended', until} (until null: for good), which the caller turns into the 403.
CREATE FUNCTION member_refusal(p_user integer, p_at timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_until timestamptz;
  v_for_good boolean;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(727279, p_user);
  SELECT suspended_until, suspended_for_good INTO v_until, v_for_good FROM users WHERE id = p_user;
  IF v_for_good THEN
    RETURN jsonb_build_object('refused', 'suspended', 'until', NULL);
  ELSIF v_until > p_at THEN
    RETURN jsonb_build_object('refused', 'suspended', 'until', v_until);
  END IF;
  RETURN NULL;
END $$;
