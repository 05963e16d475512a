import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_URL, adminQuery, freePort } from './local-services.js';
import { serverCommand } from './server-command.js';

/**
 * The production topology from plain processes (issue 24): N app instances, each with its
 * own DATA_DIR (as separate machines have) and port, on one PostgreSQL database, behind
 * HAProxy from Debian configured by deploy/haproxy.cfg (the compose file's own config, with
 * the ports of this machine), optionally with an S3-compatible server (s3rver) for the files.
 * `npm run fleet` (scripts/fleet.ts) and the fleet test suite (tests/fleet) start it here.
 *
 * No vitest import: the script uses it outside the test runner.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HAPROXY_CONFIG = path.join(ROOT, 'deploy/haproxy.cfg');

export interface FleetOptions {
  /** App instances (3). */
  instances?: number;
  /** The database the instances share; without it a fresh, empty one is created (and dropped by stop()). */
  databaseUrl?: string;
  /**
   * 'together' (default): every instance is spawned at the same moment, as a deploy with no
   * ordering does; 'staggered': the first is started alone (it applies the migrations), then
   * the others together.
   */
  start?: 'together' | 'staggered';
  /** Environment for every instance, over the fleet's defaults. */
  env?: Record<string, string>;
  /** The balancer's port (a free one by default). */
  balancerPort?: number;
  /** Start an S3-compatible server (s3rver) and point the instances' file storage at it. */
  s3?: boolean;
  /** Where each instance's output lines go (kept in a tail either way). */
  onLog?: (instance: string, line: string) => void;
  /** Ceiling for an instance to answer its health check. */
  startCeilingMs?: number;
}

export interface FleetInstance {
  name: string;
  url: string;
  port: number;
  dataDir: string;
  /** The running process's id (a new one after restart()). */
  readonly pid: number;
  /** The exit code or signal once the process ended, else null. */
  exit(): number | string | null;
  /** Sends a signal; resolves with the exit code or signal once the process ended. */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
  /** Starts the instance again on the same port and data directory; resolves when it is healthy. */
  restart(): Promise<void>;
  /** The process's last output lines (for failure messages). */
  output(): string;
}

export interface ServerState {
  name: string;
  status: string;
  /** Connections (sessions) HAProxy sent to it so far (stot). */
  sessions: number;
  /** Requests HAProxy sent to it again after a failure (wretr) and to another server (wredis). */
  retries: number;
  redispatches: number;
}

export interface Fleet {
  balancerUrl: string;
  /** HAProxy's statistics page (CSV at `${statsUrl};csv`). */
  statsUrl: string;
  databaseUrl: string;
  instances: FleetInstance[];
  haproxyPid: number;
  /** The S3 settings the instances were given, when `s3` was asked for. */
  s3: Record<string, string> | null;
  /** Every state change of an instance seen by HAProxy, then its last log lines (failed and retried requests). */
  balancerOutput(): string;
  /** HAProxy's view of each instance (UP, DOWN ...). */
  servers(): Promise<ServerState[]>;
  /** Resolves once HAProxy sees exactly these instances (by index) UP, and the others not. */
  balancerSees(up: number[], ceilingMs?: number): Promise<void>;
  /** Stops everything (instances by SIGTERM, then HAProxy, s3rver); drops a database it created. */
  stop(): Promise<void>;
}

/** A GET over a fresh connection: the status, or null when nothing answered. */
function probe(url: string, timeoutMs = 3000): Promise<{ status: number | null; body: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? null, body }));
      res.on('error', () => resolve({ status: null, body: '' }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: null, body: '' }));
  });
}

async function waitFor(what: string, ok: () => Promise<boolean>, ceilingMs: number, hopeless: () => string | null = () => null) {
  const until = Date.now() + ceilingMs;
  for (;;) {
    if (await ok().catch(() => false)) return;
    const why = hopeless();
    if (why) throw new Error(`${what}: ${why}`);
    if (Date.now() > until) throw new Error(`gave up waiting for ${what} (${ceilingMs} ms)`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The health path HAProxy checks, read from the committed config (one place to change it). */
export function healthPath(config = readFileSync(HAPROXY_CONFIG, 'utf8')): string {
  const m = /http-check send meth GET uri (\S+)/.exec(config);
  if (!m) throw new Error(`${HAPROXY_CONFIG} has no "http-check send meth GET uri ..." line`);
  return m[1];
}

/**
 * deploy/haproxy.cfg for this machine: the frontend and statistics listen on loopback ports,
 * and the compose file's `server appN appN:3000` lines become one per local instance.
 */
export function haproxyConfigFor(opts: { balancerPort: number; statsPort: number; servers: { name: string; port: number }[] }): string {
  const source = readFileSync(HAPROXY_CONFIG, 'utf8');
  const lines = source.split('\n');
  const firstServer = lines.findIndex((l) => /^\s*server\s/.test(l));
  if (firstServer < 0) throw new Error(`${HAPROXY_CONFIG} has no server line`);
  const indent = /^\s*/.exec(lines[firstServer])![0];
  const template = lines[firstServer].trim().split(/\s+/).slice(3).join(' '); // the options after "server name addr"
  const out: string[] = [];
  let frontendBindDone = false;
  let statsBindDone = false;
  let section = '';
  for (const line of lines) {
    if (/^\S/.test(line)) section = line.trim();
    if (/^\s*server\s/.test(line)) {
      if (out.some((l) => l.includes('# fleet servers'))) continue;
      out.push(`${indent}# fleet servers`);
      for (const s of opts.servers) out.push(`${indent}server ${s.name} 127.0.0.1:${s.port} ${template}`.trimEnd());
      continue;
    }
    if (/^\s*bind\s/.test(line) && section.startsWith('frontend') && !frontendBindDone) {
      out.push(`${indent}bind 127.0.0.1:${opts.balancerPort}`);
      frontendBindDone = true;
      continue;
    }
    if (/^\s*bind\s/.test(line) && section.startsWith('listen stats') && !statsBindDone) {
      out.push(`${indent}bind 127.0.0.1:${opts.statsPort}`);
      statsBindDone = true;
      continue;
    }
    out.push(line);
  }
  if (!frontendBindDone || !statsBindDone)
    throw new Error(`${HAPROXY_CONFIG} needs a frontend and a "listen stats" section, each with a bind line`);
  return out.join('\n');
}

/** Where HAProxy is: Debian's package puts it in /usr/sbin, which a non-root PATH may lack. */
export function haproxyBinary(): string {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/sbin'])) {
    const candidate = path.join(dir, 'haproxy');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('HAProxy is not installed: apt-get install -y haproxy (.ci/run does it)');
}

interface Spawned {
  child: ChildProcess;
  ended: number | string | null;
  done: Promise<number | string>;
}

function spawnLogged(
  name: string,
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  tail: string[],
  onLog?: FleetOptions['onLog'],
): Spawned {
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      tail.push(line);
      onLog?.(name, line);
    }
    if (tail.length > 60) tail.splice(0, tail.length - 60);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const spawned: Spawned = { child, ended: null, done: null as unknown as Promise<number | string> };
  spawned.done = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      spawned.ended = code ?? signal ?? -1;
      resolve(spawned.ended);
    }),
  );
  child.once('error', (err) => tail.push(`spawn failed: ${err.message}`));
  return spawned;
}

/** Starts the topology; resolves once every instance is healthy and HAProxy sees them all UP. */
export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  const count = options.instances ?? 3;
  const ceiling = options.startCeilingMs ?? 180_000;
  const cleanups: (() => Promise<void>)[] = [];
  const root = mkdtempSync(path.join(os.tmpdir(), 'agora-fleet-'));
  cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
  const stopAll = async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((err) => console.warn(`fleet stop: ${(err as Error).message}`));
  };

  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      const name = `agora_fleet_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database "${name}"`);
      cleanups.push(() => adminQuery(`drop database if exists "${name}" with (force)`));
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }

    const balancerPort = options.balancerPort ?? (await freePort());
    const statsPort = await freePort();
    const balancerUrl = `http://127.0.0.1:${balancerPort}`;
    const statsUrl = `http://127.0.0.1:${statsPort}/`;
    const health = healthPath();

    let s3: Record<string, string> | null = null;
    if (options.s3) {
      // s3rver (a dev dependency of the file storage's tests) has no types: the few calls made here.
      const moduleName = 's3rver';
      const { default: S3rver } = (await import(moduleName)) as {
        default: new (opts: object) => { run(): Promise<unknown>; close(): Promise<void> };
      };
      const s3Port = await freePort();
      const dir = path.join(root, 's3');
      mkdirSync(dir);
      const server = new S3rver({
        port: s3Port,
        address: '127.0.0.1',
        silent: true,
        directory: dir,
        configureBuckets: [{ name: 'agora', configs: [] }],
      });
      await server.run();
      cleanups.push(() => server.close());
      s3 = {
        S3_BUCKET: 'agora',
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      };
    }

    // The instances stop together (each drains for SHUTDOWN_DELAY_MS), before the database goes.
    const instanceStops: (() => Promise<void>)[] = [];
    cleanups.push(async () => {
      await Promise.all(instanceStops.map((stop) => stop()));
    });
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const instances: (FleetInstance & { launch(): Promise<void> })[] = ports.map((port, i) => {
      const name = `app${i + 1}`;
      const url = `http://127.0.0.1:${port}`;
      const dataDir = path.join(root, name);
      mkdirSync(dataDir);
      const tail: string[] = [];
      let current: Spawned | null = null;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(port),
        // Links in emails and the origin check name the balancer: the one address users see.
        PUBLIC_URL: balancerUrl,
        // HAProxy on loopback says who the client is (X-Forwarded-For).
        TRUST_PROXY: 'loopback',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        // HAProxy takes an instance out within 2 checks 500 ms apart: the port closes after that.
        SHUTDOWN_DELAY_MS: '2000',
        ...(s3 ?? {}),
        ...options.env,
      };
      if (!options.env?.SMTP_URL) delete env.SMTP_URL;
      if (!options.env?.STRIPE_SECRET_KEY) delete env.STRIPE_SECRET_KEY;
      const instance = {
        name,
        url,
        port,
        dataDir,
        get pid() {
          return current?.child.pid ?? 0;
        },
        exit: () => current?.ended ?? null,
        async launch() {
          current = spawnLogged(name, ...serverCommand(), env, tail, options.onLog);
          const mine = current;
          await waitFor(
            `${name} to answer ${health}`,
            async () => (await probe(url + health)).status === 200,
            ceiling,
            () => (mine.ended !== null ? `it exited with ${mine.ended}: ${tail.slice(-15).join('\n')}` : null),
          );
        },
        async kill(signal: NodeJS.Signals = 'SIGTERM') {
          const mine = current;
          if (!mine) return -1;
          if (mine.ended === null) mine.child.kill(signal);
          return mine.done;
        },
        async restart() {
          if (current && current.ended === null) throw new Error(`${name} still runs (pid ${current.child.pid})`);
          await instance.launch();
        },
        output: () => tail.join('\n'),
      };
      instanceStops.push(async () => {
        const mine = current;
        if (!mine || mine.ended !== null) return;
        mine.child.kill('SIGTERM');
        const timer = setTimeout(() => mine.child.kill('SIGKILL'), 20_000);
        await mine.done;
        clearTimeout(timer);
      });
      return instance;
    });

    if (options.start === 'staggered') {
      await instances[0].launch();
      await Promise.all(instances.slice(1).map((i) => i.launch()));
    } else {
      await Promise.all(instances.map((i) => i.launch()));
    }

    const configFile = path.join(root, 'haproxy.cfg');
    writeFileSync(
      configFile,
      haproxyConfigFor({ balancerPort, statsPort, servers: instances.map((i) => ({ name: i.name, port: i.port })) }),
    );
    const haproxyTail: string[] = [];
    // -db: stay in the foreground (no daemon), so this process owns it and Ctrl-C ends it.
    // Each instance's state changes (UP, DOWN and why) are kept apart: a flood of failed
    // requests would push them out of the tail, and they are what explains the flood.
    const stateChanges: string[] = [];
    const haproxy = spawnLogged('haproxy', haproxyBinary(), ['-db', '-f', configFile], process.env, haproxyTail, (name, line) => {
      if (/Server \S+ is (UP|DOWN)/.test(line) && !line.startsWith('[WARNING]')) stateChanges.push(line);
      options.onLog?.(name, line);
    });
    cleanups.push(async () => {
      if (haproxy.ended !== null) return;
      haproxy.child.kill('SIGTERM');
      await haproxy.done;
    });

    const servers = async (): Promise<ServerState[]> => {
      const csv = await probe(`${statsUrl};csv`);
      if (csv.status !== 200) throw new Error(`HAProxy statistics answered ${csv.status}`);
      const [header, ...rows] = csv.body.trim().split('\n');
      const cols = header.replace(/^# /, '').split(',');
      const at = (row: string[], col: string) => row[cols.indexOf(col)];
      return rows
        .map((r) => r.split(','))
        .filter((r) => at(r, 'pxname') === 'agora' && !['FRONTEND', 'BACKEND'].includes(at(r, 'svname')))
        .map((r) => ({
          name: at(r, 'svname'),
          status: at(r, 'status'),
          sessions: Number(at(r, 'stot') || 0),
          retries: Number(at(r, 'wretr') || 0),
          redispatches: Number(at(r, 'wredis') || 0),
        }));
    };
    const balancerSees = (up: number[], ceilingMs = 60_000) =>
      waitFor(
        `HAProxy to see ${up.map((i) => instances[i].name).join(', ') || 'no instance'} up`,
        async () => {
          const seen = await servers();
          return seen.every((s) => (s.status === 'UP') === up.includes(instances.findIndex((i) => i.name === s.name)));
        },
        ceilingMs,
        () => (haproxy.ended !== null ? `HAProxy exited with ${haproxy.ended}: ${haproxyTail.join('\n')}` : null),
      );
    await balancerSees(
      instances.map((_, i) => i),
      ceiling,
    );

    return {
      balancerUrl,
      statsUrl,
      databaseUrl,
      instances,
      get haproxyPid() {
        return haproxy.child.pid ?? 0;
      },
      s3,
      balancerOutput: () => [...stateChanges.map((l) => `state: ${l}`), ...haproxyTail].join('\n'),
      servers,
      balancerSees,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
