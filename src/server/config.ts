import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Configuration, read once at start. A wrong value stops the server with one line
 * naming the variable. The schema is also the type of the configuration.
 */
const DEV_SECRET = 'agora-local-development-secret-do-not-use-in-production';
const GOOGLE_DISCOVERY = 'https://accounts.google.com/.well-known/openid-configuration';

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => p + '//').join(' or ')}`,
  );

/** A proxy address: an IP, a CIDR range, or proxy-addr's names for the private ranges. */
const isProxyAddress = (v: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(v)) return true;
  const [ip, bits, ...rest] = v.split('/');
  if (rest.length || !isIP(ip)) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(ip) === 4 ? 32 : 128));
};

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Loopback unless set: the outbox and the payments sandbox are not for the network. */
    HOST: z.string().min(1).default('127.0.0.1'),
    PUBLIC_URL: url(['http:', 'https:']).optional(),
    /** Which proxies may set X-Forwarded-For: a hop count, or their addresses. None by default. */
    TRUST_PROXY: z
      .string()
      .refine(
        (v) => v === 'false' || /^\d+$/.test(v) || v.split(',').every((a) => isProxyAddress(a.trim())),
        'must be a number of proxy hops (1) or comma-separated proxy addresses or CIDR ranges (10.0.0.1, 10.1.0.0/16)',
      )
      .optional(),
    DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
    DATA_DIR: z.string().default('./data'),
    /** Where uploaded files live: disk (DATA_DIR/uploads), postgres (a table) or s3 (a bucket). Derived when unset. */
    STORAGE_BACKEND: z.enum(['disk', 'postgres', 's3']).optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)')
      .optional(),
    /** An S3-compatible server's address (MinIO, R2, ...); AWS's own when unset. */
    S3_ENDPOINT: url(['http:', 'https:']).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
    /** Files are fetched by browsers from here (a CDN in front of the bucket): /uploads/... redirects to it. */
    S3_PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
    /** How long to wait for a database connection before answering 503. */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
    /** The longest a single SQL statement may run (PostgreSQL's statement_timeout). */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    /**
     * On SIGTERM, how long to keep answering 503 (health included) before closing the port, so
     * a load balancer marks the instance down first and never sends to a closing listener.
     */
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SMTP_URL: url(['smtp:', 'smtps:']).optional(),
    MAIL_FROM: z.string().default('Agora <hello@agora.local>'),
    /** Where contact form messages go (in the local outbox without SMTP_URL). */
    CONTACT_TO: z
      .string()
      .trim()
      .default('team@agora.local')
      .refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), 'must be an email address'),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_DISCOVERY_URL: url(['http:', 'https:']).default(GOOGLE_DISCOVERY),
    SEED_DEMO: z.enum(['true', 'false']).default('true'),
    /** Apply pending migrations at start (under an advisory lock); false when a deploy step runs `npm run migrate`. */
    MIGRATE_ON_START: z.enum(['true', 'false']).default('true'),
    /** Prometheus metrics on a port of their own (GET /metrics), never on the public one. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Prometheus metrics at GET /metrics for a scraper that sends `Authorization: Bearer <token>`. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** OpenTelemetry traces to this OTLP/HTTP collector (…/v1/traces); none when unset. */
    OTEL_EXPORTER_OTLP_ENDPOINT: url(['http:', 'https:']).optional(),
    /** The traces' service.name. */
    OTEL_SERVICE_NAME: z.string().trim().min(1).default('agora'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
    /** Rate limit for sign-in attempts per IP and per account, per 15 minutes. */
    AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
    /**
     * scrypt's N for new password hashes: a power of two up to the default (16384). Lower only
     * on test servers (a test run makes hundreds of accounts); refused in production.
     */
    PASSWORD_HASH_COST: z.coerce
      .number()
      .int()
      .min(2)
      .max(16384)
      .refine((n) => (n & (n - 1)) === 0, 'must be a power of two (16384 by default)')
      .default(16384),
    /** Messages a user may send per minute (mailbox). */
    MAILBOX_SEND_LIMIT: z.coerce.number().int().min(1).default(30),
    /** Background jobs (jobs/queue.ts): the lease a worker renews while it runs a job (heartbeat: a third of it). */
    JOBS_LEASE_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
    /** How often every process looks for due jobs (and jobs whose lease lapsed). */
    JOBS_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    /** How long finished and failed jobs are kept for the admin page. */
    JOBS_KEEP_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
    /** Realtime sockets one user may hold open across every app process. */
    REALTIME_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
    /** Extra reference routes for `npm run bench`; never in production. */
    BENCH_ROUTES: z.enum(['true', 'false']).default('false'),
    /** Real Stripe when set; otherwise the local payments sandbox (never in production). */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_test_... or sk_live_...)')
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_(test|live)_/, 'must be a Stripe publishable key (pk_...)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must be a webhook signing secret (whsec_...)')
      .optional(),
    STRIPE_CONNECT_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must be a webhook signing secret (whsec_...)')
      .optional(),
    /** The platform's share of every course payment, in percent. */
    PLATFORM_FEE_PERCENT: z.coerce.number().int('must be a whole number').min(0).max(50).default(10),
    /** Comma-separated emails whose accounts are admins (at sign-up and at every start). */
    ADMIN_EMAILS: z
      .string()
      .default('')
      .refine((v) => v.split(',').every((e) => !e.trim() || /^[^\s@]+@[^\s@]+$/.test(e.trim())), 'must be comma-separated email addresses'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    if (!env.AUTH_SECRET) ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required in production' });
    if (!env.SMTP_URL) ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required in production (no local outbox there)' });
    if (!env.PUBLIC_URL) ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production' });
    if (env.BENCH_ROUTES === 'true') ctx.addIssue({ code: 'custom', path: ['BENCH_ROUTES'], message: 'must be false in production' });
    if (env.PASSWORD_HASH_COST !== 16384)
      ctx.addIssue({ code: 'custom', path: ['PASSWORD_HASH_COST'], message: 'must be left at its default (16384) in production' });
    if (!env.STRIPE_SECRET_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message: 'is required in production (the payments sandbox is a development tool)',
      });
  })
  .superRefine((env, ctx) => {
    if (!env.STRIPE_SECRET_KEY) return;
    for (const name of ['STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when STRIPE_SECRET_KEY is set' });
    }
  })
  .superRefine((env, ctx) => {
    if (!!env.S3_ACCESS_KEY_ID !== !!env.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: `must be set together with ${env.S3_ACCESS_KEY_ID ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'}`,
      });
    }
    if (env.STORAGE_BACKEND === 's3' && !env.S3_BUCKET)
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE_BACKEND is s3' });
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT (metrics are not served on the public port)',
      });
  })
  .superRefine((env, ctx) => {
    if (!!env.GOOGLE_CLIENT_ID !== !!env.GOOGLE_CLIENT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: [env.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'],
        message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
      });
    }
  });

export type RawEnv = z.infer<typeof schema>;

export interface Config {
  env: RawEnv['NODE_ENV'];
  production: boolean;
  /** Dev-only routes (outbox, API docs) are served. */
  devTools: boolean;
  port: number;
  host: string;
  publicUrl: string;
  /** The proxies whose X-Forwarded-For is believed (Fastify's trustProxy): false, hops, or addresses. */
  trustProxy: false | number | string[];
  databaseUrl: string | undefined;
  /** Connection and statement timeouts of the PostgreSQL pool, in milliseconds. */
  databaseTimeouts: { connectMs: number; statementMs: number };
  dataDir: string;
  /** On SIGTERM: answer 503 this long before closing the port (SHUTDOWN_DELAY_MS). */
  shutdownDelayMs: number;
  /** Where uploaded files are kept (storage/file-store.ts, docs/decisions/0059-file-storage-backends.md). */
  storage: StorageConfig;
  authSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The team's address for contact form messages (CONTACT_TO). */
  contactTo: string;
  google: { clientId: string; clientSecret: string; discoveryUrl: string } | null;
  seedDemo: boolean;
  /** Apply pending migrations at start (MIGRATE_ON_START). */
  migrateOnStart: boolean;
  /** Where Prometheus metrics are served: a port of their own and/or a bearer token; null: not at all. */
  metrics: { port: number | null; token: string | null } | null;
  /** OpenTelemetry traces over OTLP/HTTP (metrics/tracing.ts); null: none, and the SDK is not loaded. */
  otel: { endpoint: string; serviceName: string } | null;
  logLevel: RawEnv['LOG_LEVEL'];
  /** `pretty` (one readable line per entry, requests at debug) outside production; `json` in production. */
  logFormat: 'pretty' | 'json';
  authRateLimit: number;
  /** scrypt's N for new password hashes (PASSWORD_HASH_COST; lower on test servers only). */
  passwordHashCost: number;
  /** Messages a user may send per minute (MAILBOX_SEND_LIMIT). */
  mailboxSendLimit: number;
  /** Realtime sockets one user may hold across processes (REALTIME_MAX_SOCKETS_PER_USER). */
  realtimeMaxSocketsPerUser: number;
  /** Emails (lower case) of the accounts that are admins (ADMIN_EMAILS). */
  adminEmails: string[];
  benchRoutes: boolean;
  /** Background jobs: lease (s), poll interval (ms), days finished and failed jobs are kept. */
  jobs: { leaseSeconds: number; pollMs: number; keepDays: number };
  payments: PaymentsConfig;
}

/**
 * The file store: STORAGE_BACKEND when set; otherwise s3 with S3_BUCKET, postgres with
 * DATABASE_URL, and the disk under DATA_DIR (one instance, or a mount they all share).
 */
export type StorageConfig = { backend: 'disk' } | { backend: 'postgres' } | { backend: 's3'; s3: S3Config };

export interface S3Config {
  bucket: string;
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the SDK's standard chain (AWS_* variables, shared files, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** Browsers fetch files from here (a CDN); unset: through the app's /uploads/. */
  publicBaseUrl: string | undefined;
}

/**
 * The card provider. `sandbox`: the local Stripe-compatible server mounted in this app
 * (packages/stripe-sandbox), reached by the same official SDK over HTTP.
 */
export interface PaymentsConfig {
  mode: 'stripe' | 'sandbox';
  secretKey: string;
  publishableKey: string;
  /** Signing secret of platform events. */
  webhookSecret: string;
  /** Signing secret of Connect (connected account) events; the platform one if unset. */
  connectWebhookSecret: string;
  platformFeePercent: number;
}

export const SANDBOX_SECRET_KEY = 'sk_test_agora_sandbox';
export const SANDBOX_PUBLISHABLE_KEY = 'pk_test_agora_sandbox';

export class ConfigError extends Error {}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((a) => a.trim());
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'configuration');
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  return {
    env: e.NODE_ENV,
    production,
    devTools: !production,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    databaseUrl: e.DATABASE_URL,
    databaseTimeouts: { connectMs: e.DATABASE_CONNECT_TIMEOUT_MS, statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS },
    dataDir: e.DATA_DIR,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    storage: storageConfig(e),
    authSecret: e.AUTH_SECRET ?? DEV_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactTo: e.CONTACT_TO,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, discoveryUrl: e.GOOGLE_DISCOVERY_URL }
        : null,
    seedDemo: e.SEED_DEMO === 'true',
    migrateOnStart: e.MIGRATE_ON_START === 'true',
    metrics: e.METRICS_PORT !== undefined || e.METRICS_TOKEN ? { port: e.METRICS_PORT ?? null, token: e.METRICS_TOKEN ?? null } : null,
    otel: e.OTEL_EXPORTER_OTLP_ENDPOINT ? { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME } : null,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (production ? 'json' : 'pretty'),
    authRateLimit: e.AUTH_RATE_LIMIT,
    passwordHashCost: e.PASSWORD_HASH_COST,
    mailboxSendLimit: e.MAILBOX_SEND_LIMIT,
    jobs: { leaseSeconds: e.JOBS_LEASE_SECONDS, pollMs: e.JOBS_POLL_MS, keepDays: e.JOBS_KEEP_DAYS },
    realtimeMaxSocketsPerUser: e.REALTIME_MAX_SOCKETS_PER_USER,
    adminEmails: e.ADMIN_EMAILS.split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean),
    benchRoutes: e.BENCH_ROUTES === 'true',
    payments: e.STRIPE_SECRET_KEY
      ? {
          mode: 'stripe',
          secretKey: e.STRIPE_SECRET_KEY,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
          connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET ?? e.STRIPE_WEBHOOK_SECRET!,
          platformFeePercent: e.PLATFORM_FEE_PERCENT,
        }
      : {
          mode: 'sandbox',
          secretKey: SANDBOX_SECRET_KEY,
          publishableKey: SANDBOX_PUBLISHABLE_KEY,
          // Derived from the auth secret: stable across restarts, distinct per installation.
          webhookSecret:
            'whsec_' +
            createHash('sha256')
              .update(`${e.AUTH_SECRET ?? DEV_SECRET}:payments-webhook`)
              .digest('hex')
              .slice(0, 32),
          connectWebhookSecret:
            'whsec_' +
            createHash('sha256')
              .update(`${e.AUTH_SECRET ?? DEV_SECRET}:payments-connect-webhook`)
              .digest('hex')
              .slice(0, 32),
          platformFeePercent: e.PLATFORM_FEE_PERCENT,
        },
  };
}

function storageConfig(e: RawEnv): StorageConfig {
  const backend = e.STORAGE_BACKEND ?? (e.S3_BUCKET ? 's3' : e.DATABASE_URL ? 'postgres' : 'disk');
  if (backend !== 's3') return { backend };
  return {
    backend,
    s3: {
      bucket: e.S3_BUCKET!,
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      credentials:
        e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
          : undefined,
      forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
      publicBaseUrl: e.S3_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    },
  };
}
