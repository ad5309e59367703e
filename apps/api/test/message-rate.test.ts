import { describe, expect, it } from 'vitest';
import { createMessageRate } from '../src/ws/message-rate';

describe('the message rate of one connection', () => {
  it('lets max messages through per window, warns past it, and closes once max more come while over', () => {
    let now = 0;
    const rate = createMessageRate(3, 1_000, () => now);
    const verdicts = Array.from({ length: 7 }, () => rate());
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'limited', 'limited', 'limited', 'close']);

    now = 999;
    expect(rate()).toBe('close');
  });

  it('forgets messages older than the window', () => {
    let now = 0;
    const rate = createMessageRate(2, 1_000, () => now);
    expect([rate(), rate(), rate()]).toEqual(['ok', 'ok', 'limited']);
    now = 1_000;
    expect([rate(), rate(), rate()]).toEqual(['ok', 'ok', 'limited']);
    now = 1_500;
    expect(rate()).toBe('limited');
  });
});
