import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../../common/api/chat';
import { KEPT_MESSAGES, withMessage } from './cache';

const msg = (id: number): ChatMessage => ({
  id,
  senderId: 1,
  username: 'a',
  profilePicture: null,
  message: `m${id}`,
  time: '2026-11-23T00:00:00.000Z',
});

describe('the chat cache', () => {
  it('appends a live message once, even when the send answer brought it first', () => {
    const list = withMessage([msg(1), msg(2)], msg(3));
    expect(withMessage(list, msg(3)).map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('keeps id order when messages arrive out of order', () => {
    expect(withMessage([msg(1), msg(3)], msg(2)).map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it(`keeps the newest ${KEPT_MESSAGES}`, () => {
    let list: ChatMessage[] = [];
    for (let i = 1; i <= KEPT_MESSAGES + 5; i++) list = withMessage(list, msg(i));
    expect(list).toHaveLength(KEPT_MESSAGES);
    expect(list[0]!.id).toBe(6);
  });
});
