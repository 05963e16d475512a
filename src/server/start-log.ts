/**
 * The start log's words (main.ts), as the README writes them (issue 23): the address to open
 * is http://localhost:PORT when the server listens on the loopback interface (Fastify writes
 * 127.0.0.1), and the line that says the server is ready says where emails go.
 */

/** Fastify's "Server listening at …" line, with localhost for the loopback address. */
export function listenText(address: string, host: string): string {
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  const url = loopback ? address.replace(/^(https?:\/\/)(127\.0\.0\.1|\[::1\])(?=[:/]|$)/, '$1localhost') : address;
  return `Server listening at ${url}`;
}

/** The last line of a start: where to open Agora, its database, and where emails go. */
export function readyText(opts: { publicUrl: string; database: string; email: 'smtp' | 'outbox' }): string {
  const base = opts.publicUrl.replace(/\/+$/, '');
  const emails = opts.email === 'outbox' ? `emails go to the local outbox at ${base}/dev/outbox` : 'emails are sent by SMTP';
  return `Agora is ready at ${base} (database: ${opts.database}; ${emails})`;
}
