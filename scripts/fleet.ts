/**
 * `npm run fleet`: the production topology from plain processes (docs/production.md): N app
 * instances (3; `-- --instances 5`), each with its own data directory and port, on one
 * PostgreSQL database (DATABASE_URL, or a fresh one created on 127.0.0.1:5432 and dropped at
 * the end), behind HAProxy from Debian with deploy/haproxy.cfg; `-- --s3` adds an
 * S3-compatible server (s3rver) for the files. Prints the addresses; Ctrl-C stops everything.
 * `-- --port 8080` fixes the balancer's port, `-- --demo` seeds the demo data. Every instance
 * starts at the same moment, as a deploy with no ordering does (the migrations and the demo
 * data are made once, under an advisory lock); `-- --staggered` starts the first alone, then
 * the others together.
 */
import { parseArgs } from 'node:util';
import { startFleet } from '../tests/support/fleet.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    port: { type: 'string' },
    s3: { type: 'boolean', default: false },
    demo: { type: 'boolean', default: false },
    staggered: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});
const instances = Number(values.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 20) {
  console.error('--instances must be a whole number from 1 to 20');
  process.exit(2);
}

console.log(`Starting ${instances} instance(s) behind HAProxy${values.s3 ? ' with an S3-compatible store' : ''}…`);
const fleet = await startFleet({
  instances,
  databaseUrl: process.env.DATABASE_URL || undefined,
  balancerPort: values.port ? Number(values.port) : undefined,
  s3: values.s3,
  start: values.staggered ? 'staggered' : 'together',
  env: { SEED_DEMO: values.demo ? 'true' : 'false', LOG_LEVEL: 'info' },
  onLog: values.quiet ? undefined : (name, line) => console.log(`[${name}] ${line}`),
});

console.log(`
Agora fleet ready
  balancer     ${fleet.balancerUrl}
  statistics   ${fleet.statsUrl}
  database     ${fleet.databaseUrl}${process.env.DATABASE_URL ? '' : ' (created for this run, dropped at Ctrl-C)'}
${fleet.instances.map((i) => `  ${i.name.padEnd(12)} ${i.url} (pid ${i.pid}, DATA_DIR ${i.dataDir})`).join('\n')}${
  fleet.s3 ? `\n  s3           ${fleet.s3.S3_ENDPOINT} (bucket ${fleet.s3.S3_BUCKET})` : ''
}
Ctrl-C stops everything.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping the fleet…');
  await fleet.stop();
  console.log('Stopped.');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
