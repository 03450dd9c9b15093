import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/connection';
import type { NotificationEvent } from './notifications.service';

export async function insertEvents(exec: Executor, events: readonly NotificationEvent[]): Promise<void> {
  await exec.execute(insertSql(events));
}

/** The insert of `events`, for a caller that writes it in one statement with its own changes. */
export function insertSql(events: readonly NotificationEvent[]): SQL {
  const values = sql.join(
    events.map(
      (e) =>
        sql`(${e.userId}::bigint, ${e.topic}, ${e.actorId ?? null}::bigint, ${e.pictureId ?? null}::bigint,
             ${e.commentId ?? null}::bigint, ${e.amount ?? null}::bigint, ${e.item ?? null}, ${e.message ?? null})`,
    ),
    sql`, `,
  );
  return sql`INSERT INTO notification_events (user_id, topic, actor_id, picture_id, comment_id, amount, item, message)
        VALUES ${values}`;
}
