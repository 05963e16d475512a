/**
 * The database schema: one file per domain, this index for the database client,
 * drizzle-kit (drizzle.config.ts) and the auth library. Domain code imports the file of
 * the tables it uses, so a domain's dependencies show in its imports.
 */
export * from './accounts.js';
export * from './email.js';
export * from './courses.js';
export * from './payments.js';
export * from './jobs.js';
export * from './admin.js';
export * from './notifications.js';
export * from './mailbox.js';
export * from './contact.js';
export * from './clubs.js';
export * from './classroom.js';
export * from './analytics.js';
export * from './attendance.js';
export * from './realtime.js';
export * from './storage.js';
export * from './system.js';
