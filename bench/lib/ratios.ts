import type { TargetResult } from './load.js';

/** The median of some values: the lower middle for an even count, as the median round of bench/lib/load.ts. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** a ÷ b, or NaN when either is 0 (a round that served nothing measures nothing: NaN meets no budget). */
export const ratio = (a: number, b: number) => (a > 0 && b > 0 ? a / b : NaN);

/**
 * The ratios a ÷ b (req/s) within each round, in round order, and their median (NaN if any
 * round is NaN). The two routes of a round ran in the same minute of a shared machine, so a
 * slow spell moves both: the median of these ratios is steadier than the ratio of the two
 * median rounds.
 */
export function perRound(a: TargetResult, b: TargetResult): { median: number; all: number[] } {
  const all = a.rounds.map((x, i) => ratio(x.reqPerSec, b.rounds[i]?.reqPerSec ?? 0));
  return { median: all.some(Number.isNaN) ? NaN : median(all), all };
}

/** A budget stated against a reference measured in the same rounds: route ÷ reference >= min. */
export interface RatioBudget {
  route: string;
  /** The reference route's name in the run. */
  over: string;
  min: number;
}

export interface RatioVerdict extends RatioBudget {
  /** route ÷ reference in each round, in round order. */
  perRound: number[];
  /** The median of perRound: what the verdict uses. */
  median: number;
  met: boolean;
}

/** Judges a ratio budget on one run's routes (by name). */
export function judgeRatio(routes: TargetResult[], budget: RatioBudget): RatioVerdict {
  const find = (name: string) => {
    const r = routes.find((x) => x.name === name);
    if (!r) throw new Error(`no route named "${name}" in this run`);
    return r;
  };
  const r = perRound(find(budget.route), find(budget.over));
  return { ...budget, perRound: r.all, median: r.median, met: r.median >= budget.min };
}

/**
 * The references of the ratio budgets (issue 22 §7, docs/decisions/0004), by their route names
 * in a run ("floor": GET /api/bench/select, "me": GET /api/me with a session).
 */
export const REFERENCES: Record<string, string> = {
  floor: 'the floor (one prepared primary-key SELECT, no session)',
  me: '/api/me (a session lookup and nothing else)',
};

/**
 * One verdict line naming its reference, e.g.
 * `/api/me ÷ the floor (one prepared primary-key SELECT, no session): 0.70 / 0.75 / 0.67 per round, median 0.70 (budget >= 0.75x) MISSED`.
 */
export function verdictLine(v: RatioVerdict): string {
  const route = v.route === 'me' ? '/api/me' : v.route;
  return `${route} ÷ ${REFERENCES[v.over] ?? v.over}: ${v.perRound.map((x) => x.toFixed(2)).join(' / ')} per round, median ${v.median.toFixed(2)} (budget >= ${v.min}x) ${v.met ? 'PASS' : 'MISSED'}`;
}
