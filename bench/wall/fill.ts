import pg from 'pg';

/**
 * Fills a fresh, migrated database with `pictures` pictures of about 10 purchases each, in a few set-based SQL
 * statements. Purchases are spread over the last 30 days (some minutes old, some weeks), amounts $1 to $20, so the
 * three rankings have real work to do. No image files: every picture points at one placeholder key.
 */
export async function fillWall(url: string, pictures: number, authors = 1000): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Bulk load: skip foreign-key triggers (the data is consistent by construction) and build indexes afterwards.
    await client.query(`SET session_replication_role = replica`);
    await client.query(`SET maintenance_work_mem = '256MB'`);
    await client.query(
      `INSERT INTO users (username, badge, first_login)
       SELECT 'bench_' || i, 'BENCH' || i, false FROM generate_series(1, $1) i`,
      [authors],
    );
    const indexes = ['picture_purchases_recent', 'pictures_top', 'pictures_trending', 'pictures_profile'];
    const definitions = await client.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname = ANY($1)`,
      [indexes],
    );
    for (const name of indexes) await client.query(`DROP INDEX ${name}`);

    // Purchase k (1..10, in time order) of picture p: a picture "born" up to 30 days ago, its purchases spread
    // between then and now; hashes of p and k stand in for randomness so a rerun builds the same wall.
    await client.query(
      `INSERT INTO picture_purchases (picture_id, user_id, amount, paid_at)
       SELECT p, 1 + ((p * 7919 + k * 104729) % $2),
              (1 + ((p * 2654435761 + k * 40503) % 20)) * 100,
              now() - make_interval(mins => ((p * 2654435761) % 43200)::int)
                    + make_interval(mins => (((p * 2654435761) % 43200) * (k - 1) / 10)::int)
       FROM generate_series(1::bigint, $1::bigint) p, generate_series(1::bigint, 10::bigint) k
       ORDER BY p, k`,
      [pictures, authors],
    );
    await client.query(
      `INSERT INTO pictures (id, author_id, title, image_key, width, height, total_amount, purchase_count,
         created_at, last_author_payment, trending_score, trending_at)
       OVERRIDING SYSTEM VALUE
       SELECT picture_id, 1 + (picture_id % $1), '', $2, 1080, 1350, sum(amount), count(*),
              min(paid_at), min(paid_at),
              sum(1000.0 * amount / (extract(epoch from now() - paid_at)::float8 / 60 + 1)), now()
       FROM picture_purchases GROUP BY picture_id`,
      [authors, `${'0'.repeat(64)}.jpg`],
    );
    await client.query(`SELECT setval('pictures_id_seq', (SELECT max(id) FROM pictures))`);
    for (const { indexdef } of definitions.rows) await client.query(indexdef);
    await client.query(`VACUUM ANALYZE users, pictures, picture_purchases`);
  } finally {
    await client.end();
  }
}
