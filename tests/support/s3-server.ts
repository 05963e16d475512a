import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-compatible server (s3rver: the S3 REST API over HTTP, objects on disk) for tests
 * and the fleet harness: the app reaches it through the AWS SDK exactly as it reaches AWS.
 * Nothing here is a mock of the SDK.
 *
 *   const s3 = await startS3Server();
 *   const app = await buildTestApp(s3.env);            // or spawn instances with { ...process.env, ...s3.env }
 *   ...
 *   await s3.close();
 */
export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The app's environment for this bucket (STORAGE_BACKEND=s3 and the S3_* variables). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials: it checks every request's signature against them. */
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

export async function startS3Server(opts: { bucket?: string; port?: number; directory?: string } = {}): Promise<S3Server> {
  const bucket = opts.bucket ?? 'agora-test';
  const directory = opts.directory ?? mkdtempSync(path.join(tmpdir(), 'agora-s3-'));
  const own = !opts.directory;
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port ?? 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    env: {
      STORAGE_BACKEND: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      if (own) rmSync(directory, { recursive: true, force: true });
    },
  };
}
