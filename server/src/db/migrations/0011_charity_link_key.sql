-- One donation, credited once (docs/decisions.md, "One donation, credited once"): a donation link's normal form
-- (common/charity.ts, charityLinkKey) is unique among the links that are pending or approved, whoever sent them.
-- `link_key` is the SHA-256 (hex) of the normal form; the app writes it from the rule in common/charity.ts.

-- The rule in SQL, for the links stored before this migration: the same as charityLinkKey for links without
-- percent-escapes, international host names or dot segments (server/src/modules/charity/charity.links.test.ts holds
-- the two together). An approval re-keys its link with the app's rule, so a copy it missed cannot be approved too.
CREATE FUNCTION charity_link_key_v1(p_link text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v text := regexp_replace(split_part(btrim(p_link), '#', 1), '^[A-Za-z][A-Za-z0-9+.-]*://', '');
  v_host text := substring(v from '^[^/?]*');
  v_rest text := substr(v, length(v_host) + 1);
  v_path text := split_part(v_rest, '?', 1);
  v_query text := CASE WHEN position('?' in v_rest) > 0 THEN substr(v_rest, position('?' in v_rest) + 1) ELSE '' END;
BEGIN
  v_host := regexp_replace(lower(regexp_replace(v_host, '^.*@', '')), ':(80|443)?$', '');
  v_host := regexp_replace(regexp_replace(v_host, '\.$', ''), '^www\.', '');
  v_path := regexp_replace(regexp_replace(v_path, '/{2,}', '/', 'g'), '/+$', '');
  v_query := array_to_string(ARRAY(SELECT q FROM unnest(string_to_array(v_query, '&')) AS q
                                    WHERE q <> '' AND q !~* '^utm_' ORDER BY q COLLATE "C"), '&');
  RETURN v_host || v_path || CASE WHEN v_query = '' THEN '' ELSE '?' || v_query END;
END $$;
--> statement-breakpoint
ALTER TABLE "charity_links" ADD COLUMN "link_key" text;
--> statement-breakpoint
UPDATE "charity_links" SET "link_key" = encode(sha256(convert_to(charity_link_key_v1("link"), 'UTF8')), 'hex');
--> statement-breakpoint
-- Copies sent before the rule: of the pending or approved links of one key, the first approved one (else the oldest)
-- keeps it; every other pending copy is rejected, and its sender told why, as an administrator's rejection would.
WITH ranked AS (
  SELECT id, row_number() OVER (PARTITION BY link_key ORDER BY approved DESC, id) AS n
  FROM "charity_links" WHERE approved OR NOT decided
), rejected AS (
  UPDATE "charity_links" l
    SET decided = true, decided_at = now(), rejection_reason = 'This donation was already sent in another link.'
    FROM ranked r WHERE l.id = r.id AND r.n > 1 AND NOT l.approved
    RETURNING l.id, l.sender_id
)
INSERT INTO "notification_events" (user_id, topic, message, target)
  SELECT sender_id, 'SYSTEM_MESSAGE',
         'Your donation link was rejected: This donation was already sent in another link.', 's:link-' || id
  FROM rejected;
--> statement-breakpoint
-- A link approved twice before the rule was credited twice; that money moved and stays on the books. Only the
-- first approval keeps the key, so the index can hold.
UPDATE "charity_links" l SET link_key = NULL
  FROM (SELECT id, row_number() OVER (PARTITION BY link_key ORDER BY id) AS n FROM "charity_links" WHERE approved) r
  WHERE l.id = r.id AND r.n > 1;
--> statement-breakpoint
CREATE UNIQUE INDEX "charity_links_link_key" ON "charity_links" USING btree ("link_key")
  WHERE "charity_links"."approved" OR NOT "charity_links"."decided";
