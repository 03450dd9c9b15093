-- Moderation's notices (docs/product.md#moderation; docs/decisions.md "Issue 26: moderation decisions, removal,
-- refunds"): a decision told to its author, a report's outcome told to its reporter and an appeal's outcome each
-- stand alone, as a system message does, so record_notification (migration 0013) gives them a target of their own.
-- Nothing else changes.
CREATE OR REPLACE FUNCTION record_notification(
  p_user bigint, p_topic text, p_actor bigint, p_picture bigint, p_comment bigint, p_amount bigint, p_item text,
  p_message text
) RETURNS void
LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO notification_events (user_id, topic, actor_id, picture_id, comment_id, amount, item, message, target)
    VALUES (p_user, p_topic, p_actor, p_picture, p_comment, p_amount, p_item, p_message,
            CASE
              WHEN p_topic IN ('ITEM_SOLD', 'ITEM_BOUGHT') THEN 'i:' || coalesce(p_item, '')
              WHEN p_topic = 'IMAGE_COMMENT_REACTED' THEN 'c:' || coalesce(p_comment::text, '')
              WHEN p_topic IN ('SYSTEM_MESSAGE', 'MODERATION_DECISION', 'REPORT_OUTCOME', 'APPEAL_DECIDED')
                THEN 's:' || gen_random_uuid()::text
              ELSE 'p:' || coalesce(p_picture::text, '')
            END);
END $$;
