import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Writes a bench's results as JSON, stamped with the time, the commit and the machine
 * (load average included: figures from a busy machine are read as such).
 */
export function writeResults(root: string, file: string, results: Record<string, unknown>, machine: Record<string, unknown> = {}) {
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout
  }
  const body = {
    at: new Date().toISOString(),
    commit,
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadAverage1m: os.loadavg()[0], ...machine },
    ...results,
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
  console.log(`\nWrote ${path.relative(root, file)}`);
}

/** Prints a table: the first `textColumns` columns left-aligned, the figures right-aligned. */
export function table(head: string[], rows: string[][], textColumns = 1) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i < textColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  rows.forEach((r) => console.log(line(r)));
}
