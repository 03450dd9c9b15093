import { describe, expect, it } from 'vitest';
import { isOutOfSpace, OutOfSpaceError } from './out-of-space';

describe('isOutOfSpace', () => {
  it('knows a full disk from the file system, the database and our own writers, wrapped or not', () => {
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(isOutOfSpace(enospc)).toBe(true);
    expect(isOutOfSpace(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
    expect(isOutOfSpace(Object.assign(new Error('could not extend file'), { code: '53100' }))).toBe(true);
    expect(isOutOfSpace(new Error('could not write to file "pg_wal/xlogtemp.1": No space left on device'))).toBe(true);
    expect(isOutOfSpace(new OutOfSpaceError({ cause: enospc }))).toBe(true);
    expect(isOutOfSpace(new Error('Failed query', { cause: enospc }))).toBe(true);
  });

  it('leaves every other failure alone', () => {
    expect(isOutOfSpace(Object.assign(new Error('permission denied'), { code: 'EACCES' }))).toBe(false);
    expect(isOutOfSpace(Object.assign(new Error('timeout'), { code: '57014' }))).toBe(false);
    expect(isOutOfSpace(new Error('boom'))).toBe(false);
    expect(isOutOfSpace(undefined)).toBe(false);
  });
});
