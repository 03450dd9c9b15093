import { chatRoomJob } from './chat-room.job';
import { goodwillJob } from './goodwill.job';
import { mailOutboxJob } from './mail-outbox.job';
import { orphanImagesJob } from './orphan-images.job';
import { pushOutboxJob } from './push-outbox.job';
import { trendingJob } from './trending.job';
import type { Job } from './runner';

/** Every periodic job; server.ts starts them. A new job adds one line here. */
export const JOBS: readonly Job[] = [
  trendingJob,
  orphanImagesJob,
  chatRoomJob,
  goodwillJob,
  mailOutboxJob,
  pushOutboxJob,
];
