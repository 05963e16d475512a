// A Vitest reporter: each test file's project, when it started and ended (seconds after the run
// began) and its duration with its hooks and import (the json report's startTime/endTime span its
// tests only: a file's beforeAll, building its app, is outside them). Written to
// .test-output/api-files.json (VITEST_FILE_TIMES to change) for scripts/test-times.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

export default class FileTimes {
  files = new Map();
  started = Date.now();
  root = process.cwd();
  onInit(vitest) {
    this.root = vitest.config.root;
    this.started = Date.now();
  }
  entry(m) {
    const name = relative(this.root, m.moduleId);
    if (!this.files.has(name)) this.files.set(name, { file: name, project: m.project.name });
    return this.files.get(name);
  }
  at() {
    return Math.round((Date.now() - this.started) / 100) / 10;
  }
  onTestModuleCollected(m) {
    this.entry(m).collected ??= this.at();
  }
  onTestModuleStart(m) {
    this.entry(m).start ??= this.at();
  }
  onTestModuleEnd(m) {
    const e = this.entry(m);
    const d = m.diagnostic();
    e.end = this.at();
    e.seconds = Math.round((d.duration + d.collectDuration + d.prepareDuration) / 100) / 10;
    e.collectSeconds = Math.round(d.collectDuration / 100) / 10;
    e.ok = m.ok();
  }
  onTestRunEnd() {
    const out = process.env.VITEST_FILE_TIMES ?? '.test-output/api-files.json';
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ seconds: this.at(), files: [...this.files.values()] }, null, 1));
  }
}
