/**
 * Things to undo when the bench ends, however it ends (normal exit, error, Ctrl-C):
 * run last-registered first, each at most once, errors reported but not fatal.
 */
type Step = { name: string; run: () => Promise<void> | void };

const steps: Step[] = [];
let running: Promise<void> | null = null;

export function onCleanup(name: string, run: Step['run']) {
  steps.push({ name, run });
}

export function cleanup(): Promise<void> {
  running ??= (async () => {
    while (steps.length) {
      const step = steps.pop()!;
      try {
        await step.run();
      } catch (err) {
        console.error(`cleanup: could not ${step.name}: ${err instanceof Error ? err.message : err}`);
      }
    }
  })();
  return running;
}

/**
 * Ctrl-C or a kill: undo everything, then leave with the conventional code. A signal
 * usually comes twice (the terminal's to the whole group, and the one tsx relays), so
 * later ones are ignored while the cleanup runs; it is bounded (server SIGKILL after 30 s).
 */
export function cleanupOnSignals() {
  let received = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (received) return;
      received = true;
      console.error(`\n${signal} received: stopping the server and dropping the bench database`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}
