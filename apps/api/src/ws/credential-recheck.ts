/** What a socket was opened with: its session or its API key. */
export interface SocketCredential {
  via: 'session' | 'apiKey';
  id: string;
}

/** The ids of those of `credentials` that still hold (not revoked, not expired, their user not banned). */
export type CredentialCheck = (credentials: readonly SocketCredential[]) => Promise<ReadonlySet<string>>;

/** How often a share of the sockets is re-checked; each socket's turn comes once per interval. */
const TICK_MS = 1_000;

export interface CredentialRecheckOptions<S> {
  /** The open sockets, read live: one that is gone by its turn is skipped. */
  sockets: ReadonlyMap<S, { credential: SocketCredential }>;
  intervalMs: number;
  check: CredentialCheck;
  onInvalid: (socket: S) => void;
}

/**
 * Re-checks every socket's credentials once per `intervalMs`, spread over it: each tick takes the next
 * share of the sockets, round robin, and checks them all in one call. A failed check keeps them open (a
 * database outage must not close every socket); a tick is skipped while the previous one still runs.
 */
export function createCredentialRecheck<S>({ sockets, intervalMs, check, onInvalid }: CredentialRecheckOptions<S>) {
  const tickMs = Math.min(TICK_MS, intervalMs);
  // A live iterator: sockets added later are reached in this round, removed ones are not.
  let cursor = sockets.keys();
  let running = false;

  function nextShare(): S[] {
    const share = Math.ceil((sockets.size * tickMs) / intervalMs);
    const slice: S[] = [];
    let restarted = false;
    while (slice.length < share) {
      let next = cursor.next();
      if (next.done) {
        if (restarted) break;
        restarted = true;
        cursor = sockets.keys();
        next = cursor.next();
        if (next.done) break;
      }
      slice.push(next.value);
    }
    return slice;
  }

  async function tick() {
    const slice = nextShare();
    if (slice.length === 0) return;
    const valid = await check(slice.map((socket) => sockets.get(socket)!.credential));
    for (const socket of slice) {
      const entry = sockets.get(socket);
      if (entry && !valid.has(entry.credential.id)) onInvalid(socket);
    }
  }

  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  }, tickMs);
  timer.unref();

  return {
    stop: () => clearInterval(timer),
  };
}
