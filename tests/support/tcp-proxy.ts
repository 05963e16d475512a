import net from 'node:net';

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
