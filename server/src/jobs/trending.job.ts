import { refreshTrending } from '../modules/pictures/pictures.service';
import type { Job } from './runner';

/** Keeps the trending bounds of the pictures that can reach the first pages tight (ranking.repository.ts). */
export const trendingJob: Job = {
  name: 'trending-refresh',
  lock: 727275,
  everyMs: 15_000,
  // Bounds left by a previous run may be minutes old, which makes the first scans long.
  atStart: true,
  async run(ctx, work) {
    await refreshTrending(work.tx, ctx.now());
  },
};
