/**
 * PostgreSQL advisory lock keys (one bigint each, the whole cluster shares the space, so
 * they are made unlikely to collide with anyone's): the work that must run once however
 * many app instances start together (ADR 0062).
 */
export const ADVISORY_LOCKS = {
  /** Applying the migrations (db/client.ts, `npm run migrate`). */
  migrations: 7_342_001_001,
  /** Creating the demo accounts, before the server listens (seed/demo-seed.ts). */
  demoUsers: 7_342_001_002,
  /** Creating the rest of the demo data, after it listens (seed/demo-seed.ts). */
  demoSeed: 7_342_001_003,
} as const;

export type AdvisoryLock = (typeof ADVISORY_LOCKS)[keyof typeof ADVISORY_LOCKS];
