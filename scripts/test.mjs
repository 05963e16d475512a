// `npm test`: every suite, then one plain closing line "N passed, N failed" for CI.
// Suites: lint, type check (tsc, beside lint), API integration (Vitest, real PostgreSQL),
// end to end (Playwright, Chromium), and a smoke pass of the server on embedded PGlite.
//
// The end-to-end suite starts first and runs in the background; lint and tsc run in the
// background too, beside the API suite and the smoke: the e2e workers mostly wait (for pages,
// the server, the payments sandbox) and leave much of the two cores idle
// (docs/decisions/0065-test-suites-side-by-side.md).
// AGORA_TEST_SERIAL=1 runs every suite alone, one after another (to time one, or on a busy machine).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';

const OUT = '.test-output';
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

/**
 * Runs a command in the foreground (its output straight to ours) and answers its exit status.
 * Not spawnSync: the suites in the background keep writing their logs while it runs.
 */
function run(cmd, args, env = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Starts a command in the background, its output kept for later (printed when it is awaited)
 * and, with `logFile`, written there as it comes (to follow a long suite: tail -f).
 */
function background(cmd, args, logFile) {
  const started = Date.now();
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const log = logFile ? createWriteStream(logFile) : null;
  let output = '';
  const keep = (d) => {
    output += d;
    log?.write(d);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) => {
    const done = (result) => (log ? log.end(() => resolve(result)) : resolve(result));
    child.on('error', (err) => done({ status: 1, output: `${output}${err.message}\n`, seconds: 0 }));
    child.on('close', (code) => done({ status: code ?? 1, output, seconds: Math.round((Date.now() - started) / 1000) }));
  });
}

/** Wall seconds since `started`, for the log. */
const since = (started) => Math.round((Date.now() - started) / 1000);

function postgresReachable() {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port: 5432 });
    s.setTimeout(1500);
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

/** Debian's Chromium headless shell (the full browser does too, slower: ADR 0073). */
async function ensureChromium() {
  if (existsSync('/usr/bin/chromium-headless-shell')) return true;
  if (process.getuid?.() === 0) {
    console.log("Chromium's headless shell is missing: installing Debian's package (apt-get install -y chromium-headless-shell)…");
    if (
      (await run('apt-get', ['update', '-qq'])) === 0 &&
      (await run('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'])) === 0
    )
      return true;
  }
  if (existsSync('/usr/bin/chromium')) {
    console.warn(
      "Chromium's headless shell is missing (sudo apt-get install -y chromium-headless-shell): the end-to-end suite runs in the full browser, slower.",
    );
    return true;
  }
  console.error('Chromium is missing. Install it with: sudo apt-get install -y chromium-headless-shell');
  return false;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const suites = [];
function record(name, passed, failed, skipped = 0) {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  suites.push(`${name}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
}
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/**
 * What failed, named: every failed test of every suite (file > describe > test) and the first
 * lines of its error, printed just before the summary so that a CI log that keeps only its tail
 * still says which test failed and why. Capped, so that a run where everything fails stays readable.
 */
const FAILURES_SHOWN = 20;
const ERROR_LINES = 6;
const failures = [];
// eslint-disable-next-line no-control-regex
const plain = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
function failure(suite, name, error) {
  const lines = plain(error)
    .split('\n')
    .map((l) => l.trimEnd().replace(`${process.cwd()}/`, ''))
    // Stack frames inside the test runners and Node, and Playwright's code frame (its
    // `at file:line` says where), leave room for what the error says.
    .filter((l) => l.trim() !== '' && !/^\s*at .*(node_modules|node:internal|<anonymous>)|^\s*>?\s*\d*\s\|/.test(l));
  failures.push({ suite, name, lines: lines.slice(0, ERROR_LINES) });
}
const relative = (file) => String(file ?? '').replace(`${process.cwd()}/`, '');

/** Vitest's json report: failed tests, and files that failed outside any test (import, hooks). */
function vitestFailures(suite, report) {
  for (const file of report?.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) {
      failure(suite, [relative(file.name), ...(t.ancestorTitles ?? []), t.title].join(' > '), (t.failureMessages ?? []).join('\n'));
    }
    if (!failed.length && file.status === 'failed') failure(suite, relative(file.name), file.message || 'the file failed (no test did)');
  }
}

/** Playwright's json report: the suites tree (files, describes, specs, a test per project). */
function playwrightFailures(suite, report) {
  const walk = (node, path) => {
    for (const spec of node.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const last = (t.results ?? []).at(-1);
        const error = last?.errors?.map((e) => e.message ?? e.value).join('\n') || last?.error?.message || `status ${last?.status}`;
        failure(suite, [...path, spec.title].join(' > '), error);
      }
    }
    for (const child of node.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const file of report?.suites ?? []) walk(file, [file.file ?? file.title]);
  for (const e of report?.errors ?? []) failure(suite, '(outside any test)', e.message ?? e.value);
}

/** A suite that is one check (lint, tsc) or prints its own (the smoke): its lines that say what failed. */
function outputFailures(suite, output, pick) {
  const lines = plain(output)
    .split('\n')
    .filter((l) => l.trim() && pick(l));
  failure(
    suite,
    lines.length ? `${lines.length} line(s)` : 'failed',
    lines.join('\n') || plain(output).split('\n').slice(-ERROR_LINES).join('\n'),
  );
}

function printFailures() {
  if (!failures.length) return;
  console.log(`\nFailed (${failures.length}${failures.length > FAILURES_SHOWN ? `, the first ${FAILURES_SHOWN}` : ''}):`);
  for (const f of failures.slice(0, FAILURES_SHOWN)) {
    console.log(`\n✗ ${f.suite}: ${f.name}`);
    for (const l of f.lines) console.log(`    ${l}`);
  }
}

if (!(await postgresReachable())) {
  console.log('No PostgreSQL reachable on 127.0.0.1:5432: the suites run on embedded PGlite instead.');
  process.env.AGORA_TEST_PGLITE = '1';
}

const serial = process.env.AGORA_TEST_SERIAL === '1';
const runStarted = Date.now();

// The server bundle every suite starts its server processes from (`npm start`'s; ADR 0079),
// built once here: the suites' own setups find AGORA_SERVER_BUILT and do not build it again.
if ((await run(process.execPath, ['scripts/build-server.mjs'])) !== 0) {
  record('server build', 0, 1);
  failure('server build', 'node scripts/build-server.mjs failed', 'see its output above');
} else process.env.AGORA_SERVER_BUILT = '1';

// End to end in Chromium, on a fresh web build: started first, awaited last (unless serial).
// Answers `{ running }` (a promise inside an object, so that awaiting the start does not wait for the end).
async function startEndToEnd() {
  if ((await run('npx', ['vite', 'build', '--logLevel', 'warn'])) !== 0) {
    record('web build', 0, 1);
    return null;
  }
  if (!(await ensureChromium())) {
    record('E2E (playwright)', 0, 1);
    return null;
  }
  console.log(`\n$ npx playwright test${serial ? '' : ` (in the background, beside the other suites; output in ${OUT}/e2e.log)`}`);
  return { running: background('npx', ['playwright', 'test'], `${OUT}/e2e.log`) };
}

function recordEndToEnd(e2eRun) {
  console.log(`\n$ npx playwright test (${e2eRun.seconds} s)`);
  process.stdout.write(e2eRun.output);
  const e2e = readJson(`${OUT}/e2e.json`);
  if (e2e?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = e2e.stats;
    record('E2E (playwright)', expected + flaky, unexpected + (e2eRun.status !== 0 && unexpected === 0 ? 1 : 0), skipped);
    const before = failures.length;
    playwrightFailures('E2E (playwright)', e2e);
    if (e2eRun.status !== 0 && failures.length === before)
      failure(
        'E2E (playwright)',
        `playwright exited with status ${e2eRun.status}`,
        e2eRun.output.split('\n').slice(-ERROR_LINES).join('\n'),
      );
  } else {
    record('E2E (playwright)', 0, 1);
    failure('E2E (playwright)', 'no report (.test-output/e2e.json)', e2eRun.output.split('\n').slice(-ERROR_LINES).join('\n'));
  }
}

const endToEnd = serial ? null : await startEndToEnd();

/**
 * Beside the end-to-end suite, the other suites run at a lower priority (nice 10): the
 * end-to-end suite is the critical path and gets a core when it wants one; the others take
 * what it leaves idle. Without `nice` (or run serially) they run as they are.
 */
const hasNice = !serial && spawnSync('nice', ['true']).status === 0;
const beside = (cmd, args) => (hasNice ? ['nice', ['-n', '10', cmd, ...args]] : [cmd, args]);

// The types (tsc --noEmit, one thread, ~40 s) and the house rules (eslint: dependency
// directions, no cycles, hooks, accessibility; one thread too) are checked in the background,
// beside the API suite and the end-to-end suite (serially: before them); either failing fails the run.
const typeCheck = background(...beside('npx', ['tsc', '--noEmit', '--pretty', 'false']));
const lintRun = background(...beside('npm', ['run', '-s', 'lint']));
if (serial) await Promise.all([typeCheck, lintRun]);

// Smoke pass on embedded PGlite: mostly its own server starting and seeding the demo, so it
// runs in the background beside the API suite (serially: after it, as before).
const smokeRun = () => background(...beside(process.execPath, ['--import', 'tsx', 'tests/smoke/pglite-smoke.ts']));
const smokeBeside = serial ? null : smokeRun();

// API integration tests.
const apiStatus = await run(
  ...beside('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${OUT}/api.json`,
    // Each file's wall time with its hooks, for scripts/test-times.mjs (docs/decisions/0075).
    '--reporter=./scripts/vitest-file-times.mjs',
  ]),
);
const api = readJson(`${OUT}/api.json`);
if (api)
  record(
    'API (vitest)',
    api.numPassedTests,
    api.numFailedTests + (apiStatus !== 0 && api.numFailedTests === 0 ? 1 : 0),
    api.numPendingTests + (api.numTodoTests ?? 0),
  );
else record('API (vitest)', 0, 1);
vitestFailures('API (vitest)', api);
if (apiStatus !== 0 && !failures.some((f) => f.suite === 'API (vitest)'))
  failure('API (vitest)', `vitest exited with status ${apiStatus}`, 'no test failed: an error outside the tests (see its output above)');
console.log(`[API suite done at ${since(runStarted)} s]`);

const lint = await lintRun;
console.log(`\n$ npm run lint (${lint.seconds} s)`);
process.stdout.write(lint.output);
record('Lint (eslint)', ...(lint.status === 0 ? [1, 0] : [0, 1]));
if (lint.status !== 0)
  outputFailures('Lint (eslint)', lint.output, (l) =>
    /^\s+\d+:\d+\s+(error|warning)|^\[warn\]|^\S.*\.(ts|tsx|js|mjs|json|md|css)$/.test(l),
  );

const tsc = await typeCheck;
console.log(`\n$ npx tsc --noEmit (beside the lint, ${tsc.seconds} s)`);
process.stdout.write(tsc.output);
const typeErrors = (tsc.output.match(/error TS\d+/g) ?? []).length;
if (tsc.status === 0) record('Type check (tsc)', 1, 0);
else {
  record('Type check (tsc)', 0, Math.max(typeErrors, 1));
  outputFailures('Type check (tsc)', tsc.output, (l) => /error TS\d+/.test(l));
}
console.log(`[lint and types done at ${since(runStarted)} s]`);

const smoke = await (smokeBeside ?? smokeRun());
process.stdout.write(smoke.output);
const line = /SMOKE (\{.*\})/.exec(smoke.output);
if (line) {
  const s = JSON.parse(line[1]);
  record('Smoke (PGlite)', s.passed, s.failed);
  if (s.failed) outputFailures('Smoke (PGlite)', smoke.output, (l) => /^\s*✗/.test(l));
} else {
  record('Smoke (PGlite)', 0, 1);
  outputFailures('Smoke (PGlite)', smoke.output, () => false);
}
console.log(`[smoke done at ${since(runStarted)} s]`);

const e2eRun = await (serial ? await startEndToEnd() : endToEnd)?.running;
if (e2eRun) recordEndToEnd(e2eRun);
console.log(`[every suite done at ${since(runStarted)} s]`);

printFailures();
console.log('\n' + suites.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
