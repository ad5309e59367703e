/**
 * Counts a connection's messages in a sliding window: past `max` the sender is warned, and once it
 * sends `max` more while still over the limit it is closed.
 */
export function createMessageRate(max: number, windowMs: number, now: () => number = Date.now) {
  const stamps: number[] = [];
  return (): 'ok' | 'limited' | 'close' => {
    const current = now();
    while (stamps.length && stamps[0]! <= current - windowMs) stamps.shift();
    stamps.push(current);
    if (stamps.length <= max) return 'ok';
    return stamps.length > 2 * max ? 'close' : 'limited';
  };
}
