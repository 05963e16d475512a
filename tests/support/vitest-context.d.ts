import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The fresh PostgreSQL database of this run, or null when running on PGlite. */
    databaseUrl: string | null;
    /** A temp directory removed at the end of the run; each app gets its DATA_DIR under it. */
    tmpRoot: string;
  }
}
