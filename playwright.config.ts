import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in real Chromium (Debian's, never a downloaded one) against the real
 * server, a fresh database and a local OIDC provider standing in for Google. The global
 * setup starts all three; see tests/e2e/global-setup.ts.
 *
 * Ports are chosen once, in the main process, and handed to the workers through the
 * environment (workers inherit it), so parallel runs on one machine never collide.
 */
if (!process.env.E2E_PORT || !process.env.E2E_OIDC_PORT) {
  const [app, oidc] = execFileSync(process.execPath, [
    '-e',
    `const net = require('node:net');
     const free = () => new Promise((ok) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); }); });
     Promise.all([free(), free()]).then((p) => console.log(p.join(' ')));`,
  ])
    .toString()
    .trim()
    .split(' ');
  process.env.E2E_PORT ??= app;
  process.env.E2E_OIDC_PORT ??= oidc;
}

const BASE_URL = `http://localhost:${process.env.E2E_PORT}`;

/**
 * Debian's Chromium headless shell (package chromium-headless-shell, the same Blink and V8 as
 * the browser, without its UI and background services), as Playwright itself runs headless
 * Chromium: a third less of the browser's CPU than the full `chromium` in headless mode
 * (docs/decisions/0073). The full browser when the shell is not installed.
 */
const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  // E2E_WORKERS: to try another number on a given machine (docs/decisions/0075).
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Generous for a busy two-core machine (one journey took 103 s at load 14); a passing run never
  // waits for it. Specs set no lower one of their own.
  timeout: 300_000,
  expect: { timeout: 20_000 },
  outputDir: '.test-output/e2e-artifacts',
  reporter: [['list'], ['json', { outputFile: '.test-output/e2e.json' }]],
  use: {
    ...devices['Desktop Chrome'],
    baseURL: BASE_URL,
    // A failure keeps its action log, network and DOM snapshot at every step, and a screenshot
    // of the end (below); not the screencast, a JPEG frame per repaint that was half of the
    // suite's CPU (docs/decisions/0073-e2e-traces-without-screencast.md).
    // In CI (CI=true) no trace at all: nobody reads a CI run's files (it prints its failures), and
    // recording every test's snapshots cost ~18 % of the suite's CPU (docs/decisions/0078-e2e-cpu.md).
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // V8 stops at its baseline compiler (Sparkplug): a test page lives seconds, and the
        // optimizing compilers' work for it was thrown away with it. A fifth less of the
        // renderers' CPU, the suite being CPU-bound on two cores (docs/decisions/0078-e2e-cpu.md).
        '--js-flags=--max-opt=1',
        // More flags, to measure one (space-separated; docs/decisions/0078).
        ...(process.env.E2E_CHROMIUM_ARGS?.split(' ').filter(Boolean) ?? []),
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
