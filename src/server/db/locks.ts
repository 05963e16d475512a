/**
 * PostgreSQL advisory lock keys (one bigint each, the whole cluster shares the space, so
 * they are made unlikely to collide with anyone's): the work that must run once however
 * many app instances start together (ADR 0056).
 */
export const ADVISORY_LOCKS = {
  /** Applying the migrations (db/client.ts, `npm run migrate`). */
  migrations: 7_342_001_001,
  /** Creating the demo data (seed/demo-seed.ts). */
  demoSeed: 7_342_001_002,
} as const;

export type AdvisoryLock = (typeof ADVISORY_LOCKS)[keyof typeof ADVISORY_LOCKS];
