import { cleanup } from './cleanup.js';

/** An integer setting from the environment (BENCH_SECONDS=10), or the default. */
export function envInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}`);
  return n;
}

/** Runs a bench's main: an error is printed, what it set up is cleaned up, the exit code is 1. */
export function runMain(main: () => Promise<void>) {
  main().catch(async (err) => {
    console.error(err instanceof Error ? err.stack : err);
    await cleanup();
    process.exitCode = 1;
  });
}
