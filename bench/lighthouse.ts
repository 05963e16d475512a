/**
 * `npm run lighthouse`: Lighthouse 12 (mobile emulation, simulated throttling: its default
 * configuration) in Debian's Chromium against a production build of the web app, served
 * by the real server with the demo data, on the pages a visitor and a learner see first.
 *
 *   1. `vite build` (LIGHTHOUSE_SKIP_BUILD=1 keeps dist/web as it is);
 *   2. a fresh database (local PostgreSQL, else PGlite) and the server in a child process
 *      with the demo data; waits until the demo courses exist;
 *   3. signs in as the demo learner; the signed-in pages get that session cookie through
 *      Lighthouse's extraHeaders (the public ones are measured as a visitor);
 *   4. LIGHTHOUSE_RUNS runs per page (default 3), the median run by performance is kept
 *      (LIGHTHOUSE_PAGES=login,course measures only the pages named);
 *   5. bench/results/lighthouse-<LIGHTHOUSE_LABEL or latest>.json (scores, metrics, the
 *      audits that failed) and .md (the summary table); the full reports go to
 *      .test-output/lighthouse/. Exit 1 when a page misses a target.
 *
 * Nothing is fetched beyond localhost: Chromium runs with background networking off, and
 * every page, font and image is served by this server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { DEMO_PASSWORD } from '../src/server/seed/demo-users.js';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { writeResults, table } from './lib/report.js';
import { signIn, startBenchServer, type RunningServer } from './lib/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LABEL = process.env.LIGHTHOUSE_LABEL || 'latest';
const RESULTS = path.join(ROOT, `bench/results/lighthouse-${LABEL}.json`);
const SUMMARY = path.join(ROOT, `bench/results/lighthouse-${LABEL}.md`);
const FULL_REPORTS = path.join(ROOT, '.test-output/lighthouse');
const RUNS = envInt('LIGHTHOUSE_RUNS', 3);
const LEARNER = 'ada@agora.local';
const ONLY = (process.env.LIGHTHOUSE_PAGES ?? '').split(',').filter(Boolean);

const TARGETS = { performance: 95, accessibility: 95 };

/** The flags of playwright.config.ts (the e2e suite's Chromium), headless. */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Page {
  name: string;
  path: string;
  signedIn: boolean;
}

interface PageResult {
  name: string;
  url: string;
  signedIn: boolean;
  runs: number;
  scores: Record<string, number>;
  /** Every run's performance score, to read the spread. */
  performanceRuns: number[];
  metrics: Record<string, number>;
  /** JS transferred (bytes, as served: gzipped). */
  scriptBytes: number;
  failedAudits: { category: string; id: string; title: string; score: number | null; displayValue?: string }[];
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

async function demoCoursePath(server: RunningServer, cookie: string): Promise<string> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const res = await fetch(`${server.baseUrl}/api/courses/search?pageSize=5`, { headers: { cookie } });
    if (res.ok) {
      const body = (await res.json()) as { items: { id: string }[] };
      if (body.items.length) return `/course/${body.items[0].id}`;
    }
    if (Date.now() > deadline) throw new Error(`no demo course appeared within 180 s:\n${server.logTail()}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function summarize(page: Page, url: string, lhrs: Lhr[]): PageResult {
  const byPerf = [...lhrs].sort((a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0));
  const lhr = byPerf[Math.floor(byPerf.length / 2)];
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
  const failedAudits: PageResult['failedAudits'] = [];
  for (const [category, { auditRefs }] of Object.entries(lhr.categories)) {
    for (const ref of auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
      failedAudits.push({ category, id: ref.id, title: audit.title, score: audit.score, displayValue: audit.displayValue });
    }
  }
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)
    ?.items;
  return {
    name: page.name,
    url,
    signedIn: page.signedIn,
    runs: lhrs.length,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
    },
    performanceRuns: lhrs.map((l) => Math.round((l.categories.performance.score ?? 0) * 100)),
    metrics: {
      fcpMs: numeric('first-contentful-paint'),
      lcpMs: numeric('largest-contentful-paint'),
      tbtMs: numeric('total-blocking-time'),
      cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      speedIndexMs: numeric('speed-index'),
    },
    scriptBytes: (items ?? []).filter((i) => i.resourceType === 'Script').reduce((n, i) => n + (i.transferSize ?? 0), 0),
    failedAudits,
  };
}

async function main() {
  cleanupOnSignals();
  console.log(
    `Agora Lighthouse — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, ${RUNS} run(s) per page\n`,
  );

  if (process.env.LIGHTHOUSE_SKIP_BUILD !== '1') {
    console.log('Building the web app (vite build)…');
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('vite build failed');
  }

  const database = await createBenchDatabase();
  const server = await startBenchServer({
    name: 'lighthouse',
    root: ROOT,
    databaseUrl: database.kind === 'postgres' ? database.url : '',
    env: { BENCH_ROUTES: 'false', GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' },
  });
  console.log(`Server: pid ${server.pid} at ${server.baseUrl} (${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`);
  const session = await signIn(server, LEARNER, DEMO_PASSWORD);
  const coursePath = await demoCoursePath(server, session.cookie);

  const allPages: Page[] = [
    { name: 'landing', path: '/', signedIn: false },
    { name: 'login', path: '/login', signedIn: false },
    { name: 'course-search', path: '/course/search', signedIn: true },
    { name: 'course', path: coursePath, signedIn: true },
    { name: 'explore', path: '/explore', signedIn: true },
    { name: 'dashboard', path: '/dashboard', signedIn: true },
  ];
  const pages = ONLY.length ? allPages.filter((p) => ONLY.includes(p.name)) : allPages;

  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  onCleanup('stop Chromium', () => chrome.kill());
  mkdirSync(FULL_REPORTS, { recursive: true });

  const results: PageResult[] = [];
  for (const page of pages) {
    const url = `${server.baseUrl}${page.path}`;
    const lhrs: Lhr[] = [];
    for (let run = 0; run < RUNS; run++) {
      // A trace that failed to record (NO_NAVSTART and the like) is Lighthouse's hiccup: tried again, twice.
      let result: Awaited<ReturnType<typeof lighthouse>>;
      for (let attempt = 1; ; attempt++) {
        result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          extraHeaders: page.signedIn ? { Cookie: session.cookie } : undefined,
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        if (!result.lhr.runtimeError) break;
        if (attempt === 3) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.message}`);
        console.log(`  (${page.name}: ${result.lhr.runtimeError.code}, trying again)`);
      }
      lhrs.push(result.lhr);
      writeFileSync(path.join(FULL_REPORTS, `${LABEL}-${page.name}-${run + 1}.json`), JSON.stringify(result.lhr));
    }
    const summary = summarize(page, url, lhrs);
    results.push(summary);
    console.log(
      `  ${page.name.padEnd(14)} perf ${summary.scores.performance} (${summary.performanceRuns.join(', ')})  a11y ${summary.scores.accessibility}  LCP ${summary.metrics.lcpMs} ms  TBT ${summary.metrics.tbtMs} ms  CLS ${summary.metrics.cls}`,
    );
  }

  const misses = results.flatMap((r) =>
    Object.entries(TARGETS)
      .filter(([k, min]) => r.scores[k] < min)
      .map(([k, min]) => `${r.name}: ${k} ${r.scores[k]} (target >= ${min})`),
  );

  console.log('');
  const rows = results.map((r) => [
    r.name,
    String(r.scores.performance),
    String(r.scores.accessibility),
    String(r.scores.bestPractices),
    String(r.scores.seo),
    String(r.metrics.fcpMs),
    String(r.metrics.lcpMs),
    String(r.metrics.tbtMs),
    String(r.metrics.cls),
    (r.scriptBytes / 1000).toFixed(1),
  ]);
  const head = ['page', 'perf', 'a11y', 'best', 'seo', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'JS kB'];
  table(head, rows);

  writeResults(ROOT, RESULTS, { label: LABEL, runsPerPage: RUNS, targets: TARGETS, database: database.kind, pages: results, misses });
  const md = [
    `# Lighthouse ${LABEL} (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `Lighthouse 12, mobile emulation with simulated throttling, Debian's Chromium, production build, demo data, ${RUNS} run(s) per page (median by performance). Targets: performance >= ${TARGETS.performance}, accessibility >= ${TARGETS.accessibility}.`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    misses.length ? `Missed: ${misses.join('; ')}` : 'Every page meets both targets.',
    '',
    ...results.flatMap((r) =>
      r.failedAudits.length
        ? [
            `## ${r.name}: audits below 0.9`,
            '',
            ...r.failedAudits.map((a) => `- ${a.category}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`),
            '',
          ]
        : [],
    ),
  ].join('\n');
  writeFileSync(SUMMARY, md);
  console.log(`Wrote ${path.relative(ROOT, SUMMARY)}`);

  await cleanup();
  if (misses.length) {
    console.log(`\nMISSED: ${misses.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nPASS: every page meets both targets');
  }
}

runMain(main);
