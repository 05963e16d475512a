import autocannon, { type Result } from 'autocannon';

export interface Target {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** The body may differ between responses (a timestamp in it): only the status is checked. */
  anyBody?: boolean;
  /** Another server than measure()'s (the scale runs: one server per database size). */
  baseUrl?: string;
}

export interface LoadSettings {
  connections: number;
  /** Seconds of each measured round. */
  seconds: number;
  rounds: number;
  /** Seconds of the unmeasured warm-up run per route. */
  warmupSeconds: number;
}

export interface RoundResult {
  round: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodes: Record<string, number>;
}

export interface TargetResult {
  name: string;
  path: string;
  /** The round with the median req/s (the lower middle for an even count). */
  median: RoundResult;
  rounds: RoundResult[];
  /** Over every run of this route, warm-up included: anything here fails the bench. */
  problems: { non2xx: number; errors: number; timeouts: number; mismatches: number; statusCodes: Record<string, number> };
}

/**
 * Interleaved rounds (every route once per round, in turn), so that noise from other
 * work on a shared machine falls on every route alike. Each response is checked
 * against the body the route gave once before the load: a 200 with the wrong
 * answer (say, a user not found) counts as a failure too.
 */
export async function measure(
  baseUrl: string,
  targets: Target[],
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<TargetResult[]> {
  const expected = new Map<string, string>();
  for (const t of targets) {
    const res = await fetch((t.baseUrl ?? baseUrl) + t.path, { headers: t.headers });
    const body = await res.text();
    if (res.status < 200 || res.status > 299)
      throw new Error(`${t.name}: GET ${t.path} answered ${res.status} before the load: ${body.slice(0, 300)}`);
    expected.set(t.name, body);
  }

  const runs = new Map<string, { warmup: Result | null; rounds: Result[] }>(targets.map((t) => [t.name, { warmup: null, rounds: [] }]));
  const run = (t: Target, seconds: number) =>
    autocannon({
      url: (t.baseUrl ?? baseUrl) + t.path,
      connections: settings.connections,
      duration: seconds,
      headers: t.headers,
      expectBody: t.anyBody ? undefined : expected.get(t.name),
      timeout: 10,
    });

  if (settings.warmupSeconds > 0) {
    log(`warm-up: ${settings.warmupSeconds} s per route`);
    for (const t of targets) runs.get(t.name)!.warmup = await run(t, settings.warmupSeconds);
  }
  for (let round = 1; round <= settings.rounds; round++) {
    for (const t of targets) {
      const result = await run(t, settings.seconds);
      runs.get(t.name)!.rounds.push(result);
      log(
        `round ${round}/${settings.rounds} ${t.name.padEnd(14)} ${Math.round(result.requests.average).toString().padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${result.non2xx ? `  NON-2XX ${result.non2xx}` : ''}`,
      );
    }
  }

  return targets.map((t) => {
    const { warmup, rounds } = runs.get(t.name)!;
    const summarized = rounds.map((r, i) => summarize(r, i + 1));
    const sorted = [...summarized].sort((a, b) => a.reqPerSec - b.reqPerSec);
    const all = warmup ? [warmup, ...rounds] : rounds;
    const statusCodes: Record<string, number> = {};
    for (const r of all) {
      for (const [code, { count }] of Object.entries(r.statusCodeStats)) {
        if (!code.startsWith('2')) statusCodes[code] = (statusCodes[code] ?? 0) + Number(count);
      }
    }
    return {
      name: t.name,
      path: t.path,
      median: sorted[Math.floor((sorted.length - 1) / 2)],
      rounds: summarized,
      problems: {
        non2xx: sum(all, (r) => r.non2xx),
        errors: sum(all, (r) => r.errors),
        timeouts: sum(all, (r) => r.timeouts),
        mismatches: sum(all, (r) => r.mismatches),
        statusCodes,
      },
    };
  });
}

function summarize(r: Result, round: number): RoundResult {
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, { count }]) => [code, Number(count)]));
  return {
    round,
    reqPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    responses: Object.values(statusCodes).reduce((a, b) => a + b, 0),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
    statusCodes,
  };
}

const sum = <T>(items: T[], f: (item: T) => number) => items.reduce((a, item) => a + f(item), 0);
