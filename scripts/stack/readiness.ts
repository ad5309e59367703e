import { stopSignal } from './stop-signals';

/**
 * Polls GET /health/ready on every port until all answer 200; `onSlow` hears which still do not, once. The pause
 * grows to a second: a service logs every readiness check it fails.
 */
export async function waitUntilReady(
  targets: { name: string; port: number }[],
  onSlow: (waitingFor: string[]) => void,
  slowAfterMs = 30_000,
): Promise<void> {
  const pending = new Map(targets.map((target) => [target.name, target.port]));
  const startedAt = Date.now();
  let reportedSlow = false;
  let pauseMs = 100;
  while (pending.size && !stopSignal.aborted) {
    await Promise.all(
      [...pending].map(async ([name, port]) => {
        if (await isReady(port)) pending.delete(name);
      }),
    );
    if (!pending.size) return;
    if (!reportedSlow && Date.now() - startedAt > slowAfterMs) {
      reportedSlow = true;
      onSlow([...pending.keys()]);
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    pauseMs = Math.min(pauseMs * 2, 1000);
  }
}

async function isReady(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(3000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
