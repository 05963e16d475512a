// Minimal types for the parts of autocannon v9 the bench uses (the package ships none).
declare module 'autocannon' {
  export interface Histogram {
    min: number;
    max: number;
    average: number;
    stddev: number;
    mean: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    /** requests: the requests completed in the run (throughput: the bytes) */
    total: number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    expectBody?: string;
    title?: string;
    /** Per-request setup (the mailbox bench: a random sender and a fresh clientId each time). */
    requests?: {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: RequestSpec) => RequestSpec;
    }[];
  }
  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Result {
    title?: string;
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): PromiseLike<Result> & { stop(): void };
  export default autocannon;
}
