// Per-file wall time of the API suite (Vitest), from what `npm test` leaves in .test-output:
//   node scripts/test-times.mjs [api-files.json] [--top N] [--vs other-api-files.json] [--write]
// api-files.json (scripts/vitest-file-times.mjs) has each file's time with its hooks and import,
// when it started and ended; prints the slowest files, the last to end (what the run's end waited
// on) and how long one, two or no files were running. --write keeps the files over 20 s in
// tests/slow-files.json, the order in which each project starts them (vitest.config.ts).
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  return args.splice(i, 2)[1];
};
const top = Number(option('--top', 15));
const vs = option('--vs', null);
const write = flag('--write');
const file = args[0] ?? '.test-output/api-files.json';

const load = (path) => {
  const { seconds, files } = JSON.parse(readFileSync(path, 'utf8'));
  return { seconds, files: files.filter((f) => f.end !== undefined), sum: files.reduce((s, f) => s + (f.seconds ?? 0), 0) };
};
const run = load(file);
const other = vs ? load(vs) : null;
const s = (n) => (n === undefined ? '     -' : n.toFixed(1).padStart(6));

console.log(
  `${file}: ${run.files.length} files, run ${run.seconds.toFixed(0)} s, files' time summed ${run.sum.toFixed(0)} s` +
    (other ? `; ${vs}: run ${other.seconds.toFixed(0)} s, summed ${other.sum.toFixed(0)} s` : ''),
);
console.log(`${'file'.padEnd(58)} ${'time'.padStart(6)} ${'start'.padStart(6)} ${'end'.padStart(6)}${other ? '  other' : ''}`);
for (const f of [...run.files].sort((a, b) => b.seconds - a.seconds).slice(0, top)) {
  const o = other?.files.find((x) => x.file === f.file);
  console.log(`${f.file.padEnd(58)} ${s(f.seconds)} ${s(f.end - f.seconds)} ${s(f.end)}${other ? ` ${s(o?.seconds)}` : ''}`);
}
console.log('\nlast to end:');
for (const f of [...run.files].sort((a, b) => b.end - a.end).slice(0, 5))
  console.log(`${f.file.padEnd(58)} ${s(f.seconds)} ${s(f.end - f.seconds)} ${s(f.end)}`);

// How many files were running, second by second (a file from its end minus its time).
const running = {};
for (let t = 0; t < run.seconds; t += 0.5) {
  const n = run.files.filter((f) => f.end - f.seconds <= t && f.end > t).length;
  running[n] = (running[n] ?? 0) + 0.5;
}
console.log(`\nseconds with n files running: ${JSON.stringify(running)}`);

if (write) {
  const slow = Object.fromEntries(
    [...run.files]
      .filter((f) => f.seconds >= 20)
      .sort((a, b) => b.seconds - a.seconds)
      .map((f) => [f.file, Math.round(f.seconds)]),
  );
  writeFileSync('tests/slow-files.json', `${JSON.stringify(slow, null, 2)}\n`);
  console.log(`tests/slow-files.json: ${Object.keys(slow).length} files`);
}
