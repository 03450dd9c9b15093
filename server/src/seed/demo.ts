import type { AppContext } from '../context';

/** Fills an empty database with a small, clearly marked demo. The wall issue adds pictures to it. */
export async function seedDemoIfEmpty(_ctx: AppContext): Promise<void> {}
