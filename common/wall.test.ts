import { describe, expect, it } from 'vitest';
import { FIRST_BATCH, NEXT_BATCH, wallBatchPath } from './wall';

describe('wallBatchPath', () => {
  it('writes sort, offset and limit in that order, the way the page names the first batch', () => {
    expect(wallBatchPath({ sort: 'top', offset: 0, limit: FIRST_BATCH })).toBe(
      '/api/pictures?sort=top&offset=0&limit=3',
    );
    expect(wallBatchPath({ sort: 'trending', offset: 3, limit: NEXT_BATCH })).toBe(
      '/api/pictures?sort=trending&offset=3&limit=2',
    );
  });

  it('adds the author of a profile wall last', () => {
    expect(wallBatchPath({ sort: 'profile', offset: 0, limit: 3, authorId: 7 })).toBe(
      '/api/pictures?sort=profile&offset=0&limit=3&authorId=7',
    );
  });
});
