import net from 'node:net';
import { createRunDatabase, type RunDatabase } from './run-database.js';

/**
 * A TCP proxy in front of PostgreSQL that a test can break: `refuse` (the database is
 * gone: connections refused, open ones cut), `hang` (the host stops answering: bytes are
 * swallowed, nothing is closed) and `restore`.
 */
export interface TcpProxy {
  port: number;
  refuse(): Promise<void>;
  hang(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let hanging = false;
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => client.destroy());
        if (hanging) return;
        const upstream = net.connect(target);
        sockets.add(upstream);
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
        client.on('data', (chunk) => {
          if (!hanging) upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          if (!hanging) client.write(chunk);
        });
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });

  await listen();
  return {
    get port() {
      return port;
    },
    refuse: stop,
    hang() {
      hanging = true;
    },
    async restore() {
      // Connections that hung are cut (as a network that comes back resets them).
      hanging = false;
      await stop();
      await listen();
    },
    close: stop,
  };
}

/**
 * A throwaway database (createRunDatabase, `prefix`) behind a proxy of its own: `url` reaches it
 * through the proxy (what the app under test is given), `run.url` directly (the test's own
 * connection, which the cuts leave alone). The caller closes the proxy and drops the database.
 */
export async function databaseBehindProxy(prefix: string): Promise<{ run: RunDatabase; proxy: TcpProxy; url: string }> {
  const made = await createRunDatabase(prefix);
  if ('error' in made) throw new Error(made.error);
  const target = new URL(made.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const url = new URL(made.url);
  url.host = `127.0.0.1:${proxy.port}`;
  return { run: made, proxy, url: url.toString() };
}
