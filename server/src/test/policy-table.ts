import type { InjectOptions } from 'fastify';
import { expect, it } from 'vitest';
import { checkConservation } from '../ledger/conservation';
import type { TestClient } from './harness';
import type { TestApp } from './harness';

/** One route that takes an object id, called by someone who must not get at that object. */
export interface ForeignAccess<Ids> {
  route: string;
  request(ids: Ids): InjectOptions;
  /**
   * 403 where the object's existence is no secret, 404 where even that is hidden; 400 where the spec calls the
   * attempt bad input (taking one's own market offer).
   */
  status: 400 | 403 | 404;
}

/**
 * The table-driven check of a domain's own rule that takes no other user's id (the market's graphs and own offers;
 * every route taking an id is in http/authorization.policy.test.ts): each row is called by the one who must not get
 * in, must be refused with its status, and must change nothing (`snapshot` before and after, and the books).
 */
export function itRefusesStrangers<Ids>(
  t: () => TestApp,
  setup: () => Promise<{ ids: Ids; stranger: TestClient; snapshot(): Promise<unknown> }>,
  table: ForeignAccess<Ids>[],
): void {
  for (const row of table) {
    it(`${row.route} answers ${row.status} to another user and changes nothing`, async () => {
      const { ids, stranger, snapshot } = await setup();
      const before = await snapshot();
      const res = await stranger.request(row.request(ids));
      expect(res.statusCode, res.body).toBe(row.status);
      expect(await snapshot()).toEqual(before);
      expect((await checkConservation(t().ctx.db)).ok).toBe(true);
    });
  }
}
