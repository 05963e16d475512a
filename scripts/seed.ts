/**
 * `npm run seed`: data at scale. `-- --courses N` (scripts/seed-courses.ts, with its other
 * options) and `-- --clubs N` (scripts/seed-clubs.ts); with only --courses, as many clubs
 * as courses; with only --clubs, clubs only; with neither, 1000 of each. Each part runs in
 * its own process, courses first.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argValue } from './seed-kit.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const value = (name: string) => argValue(args, name);
const withoutOption = (name: string) => {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) i++;
    else if (!args[i].startsWith(`${name}=`)) out.push(args[i]);
  }
  return out;
};

const clubsArg = value('--clubs');
const courses = value('--courses') ?? (clubsArg ? '0' : '1000');
const clubs = clubsArg ?? courses;
const run = (script: string, scriptArgs: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...scriptArgs], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (Number(courses) > 0)
  run('scripts/seed-courses.ts', [...withoutOption('--clubs'), ...(value('--courses') ? [] : ['--courses', courses])]);
if (Number(clubs) > 0) {
  const seed = value('--seed');
  run('scripts/seed-clubs.ts', ['--clubs', clubs, ...(seed ? ['--seed', seed] : [])]);
}
