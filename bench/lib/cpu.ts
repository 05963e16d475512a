import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * CPU time spent serving a route: the server process plus every PostgreSQL backend connected
 * to the bench's database (the app's pools, the realtime publisher and listener), read from
 * /proc (utime + stime). Divided by the requests served it is a route's cost per request,
 * which the shared machine's other work barely moves, where requests per second swing with
 * it (a round's throughput is what the machine had left; its CPU per request is the route's).
 * Linux only; `undefined` elsewhere.
 */
export interface CpuMeter {
  /** CPU milliseconds used so far by the server process and by the database's backends. */
  sample(): Promise<{ server: number; database: number } | undefined>;
  close(): Promise<void>;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14, 15)
  } catch {
    return 0; // the process ended
  }
}

export async function cpuMeter(serverPid: number, databaseUrl: string): Promise<CpuMeter> {
  if (process.platform !== 'linux') return { sample: async () => undefined, close: async () => {} };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows: me } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  // A backend that ended keeps its CPU in the total: its last reading is remembered.
  const last = new Map<number, number>();
  return {
    async sample() {
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> $1',
        [me[0].pid],
      );
      for (const { pid } of rows) last.set(pid, cpuMsOf(pid) || last.get(pid) || 0);
      let database = 0;
      for (const ms of last.values()) database += ms;
      return { server: cpuMsOf(serverPid), database };
    },
    close: () => client.end(),
  };
}
