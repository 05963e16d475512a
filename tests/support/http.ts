import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';
import type { Send } from './test-data.js';

export type Response = LightMyRequestResponse;

export interface CallOptions {
  /** Cookie header to send (from signIn or cookieHeader). */
  cookie?: string;
  /** Client address; random by default so per-IP limits of unrelated tests never add up. */
  ip?: string;
  headers?: Record<string, string>;
}

/** A random private address, so every call looks like it comes from its own client. */
export function randomIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export { uniqueEmail } from './test-data.js';

function headersFor(app: TestApp, method: string, opts: CallOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (method !== 'GET' && method !== 'HEAD') headers.origin = app.config.publicUrl;
  if (opts.cookie) headers.cookie = opts.cookie;
  return { ...headers, ...opts.headers };
}

export function call(app: TestApp, method: InjectOptions['method'], url: string, payload?: unknown, opts: CallOptions = {}) {
  const m = String(method).toUpperCase();
  return app.inject({
    method,
    url,
    headers: headersFor(app, m, opts),
    remoteAddress: opts.ip ?? randomIp(),
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
}

export const get = (app: TestApp, url: string, opts: CallOptions = {}) => call(app, 'GET', url, undefined, opts);
export const post = (app: TestApp, url: string, payload?: unknown, opts: CallOptions = {}) => call(app, 'POST', url, payload, opts);
export const patch = (app: TestApp, url: string, payload?: unknown, opts: CallOptions = {}) => call(app, 'PATCH', url, payload, opts);
export const del = (app: TestApp, url: string, opts: CallOptions = {}) => call(app, 'DELETE', url, undefined, opts);

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names in lower case -> value ('' for flags such as HttpOnly). */
  attributes: Record<string, string>;
}

/** The Set-Cookie headers of a response, parsed. */
export function setCookies(res: Response): SetCookie[] {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
  return list.map((line) => {
    const [pair, ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    return {
      name: pair.slice(0, eq).trim(),
      value: pair.slice(eq + 1).trim(),
      attributes: Object.fromEntries(
        attrs.map((a) => {
          const i = a.indexOf('=');
          return i < 0 ? [a.trim().toLowerCase(), ''] : [a.slice(0, i).trim().toLowerCase(), a.slice(i + 1).trim()];
        }),
      ),
    };
  });
}

/** A Cookie request header carrying every cookie a response set (cleared ones left out). */
export function cookieHeader(res: Response): string {
  return setCookies(res)
    .filter((c) => c.value !== '' && c.attributes['max-age'] !== '0')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
}

/** The path and query of an absolute URL (what inject() takes). */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** The shared factories' client (test-data.ts): JSON calls to the app with this user's cookie. */
export function sendAs(app: TestApp, cookie?: string): Send {
  return async (method, url, body) => {
    const res = await call(app, method, url, body, { cookie });
    return { status: res.statusCode, text: res.body, json: () => res.json() };
  };
}
