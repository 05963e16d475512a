import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import { guard, type FileStore } from './store.js';
import { assertStorageKey, contentTypeOf, sha256Hex } from './keys.js';

/** The object's user metadata that carries our content hash (S3's own ETag is an MD5, or not one at all for multipart). */
const HASH_META = 'sha256';

/**
 * Files in an S3 bucket (AWS or any S3-compatible store: MinIO, R2, Ceph, ...), through the
 * official SDK v3. Every instance that names the bucket serves every file.
 */
export function createS3Store(config: S3Config): FileStore {
  const options: S3ClientConfig = {
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    // Unset: the SDK's standard chain (AWS_ACCESS_KEY_ID, shared files, instance or pod roles).
    credentials: config.credentials,
    // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's
    // default CRC trailers; the content hash is ours anyway (HASH_META).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    // A bucket that does not answer fails the request (503) instead of holding it.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 15_000 },
  };
  // The SDK is loaded only where S3 is the store (a tenth of a second at every start otherwise).
  const sdk = import('@aws-sdk/client-s3');
  const s3 = sdk.then(({ S3Client }) => new S3Client(options));
  const Bucket = config.bucket;
  const missing = (err: unknown) => {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    // A missing bucket is a misconfiguration (503, and a warning at start), not a missing file.
    if (e?.name === 'NoSuchBucket') return false;
    return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
  };

  return {
    backend: 's3',
    put: (key, body, contentType) =>
      guard('s3', async () => {
        assertStorageKey(key);
        const sha256 = sha256Hex(body);
        const { PutObjectCommand } = await sdk;
        await (
          await s3
        ).send(
          new PutObjectCommand({
            Bucket,
            Key: key,
            Body: body,
            ContentType: contentType,
            ContentLength: body.length,
            // What a CDN in front of the bucket passes on: keys are never rewritten.
            CacheControl: 'public, max-age=31536000, immutable',
            Metadata: { [HASH_META]: sha256 },
          }),
        );
        return { sha256, contentType, size: body.length };
      }),
    get: (key) =>
      guard('s3', async () => {
        assertStorageKey(key);
        try {
          const { GetObjectCommand } = await sdk;
          const out = await (await s3).send(new GetObjectCommand({ Bucket, Key: key }));
          const body = Buffer.from(await out.Body!.transformToByteArray());
          return { body, sha256: out.Metadata?.[HASH_META] ?? sha256Hex(body), contentType: contentTypeOf(key), size: body.length };
        } catch (err) {
          if (missing(err)) return null;
          throw err;
        }
      }),
    head: (key) =>
      guard('s3', async () => {
        assertStorageKey(key);
        try {
          const { GetObjectCommand, HeadObjectCommand } = await sdk;
          const out = await (await s3).send(new HeadObjectCommand({ Bucket, Key: key }));
          let sha256 = out.Metadata?.[HASH_META];
          if (!sha256) {
            // An object put there by another tool: hash its bytes.
            const whole = await (await s3).send(new GetObjectCommand({ Bucket, Key: key }));
            sha256 = sha256Hex(await whole.Body!.transformToByteArray());
          }
          return { sha256, contentType: contentTypeOf(key), size: out.ContentLength ?? 0 };
        } catch (err) {
          if (missing(err)) return null;
          throw err;
        }
      }),
    delete: (key) =>
      guard('s3', async () => {
        assertStorageKey(key);
        const { DeleteObjectCommand } = await sdk;
        await (await s3).send(new DeleteObjectCommand({ Bucket, Key: key }));
      }),
    publicUrl: (key) => (config.publicBaseUrl ? `${config.publicBaseUrl}/${key}` : null),
    ping: async () => {
      try {
        const { HeadBucketCommand } = await sdk;
        await (await s3).send(new HeadBucketCommand({ Bucket }));
        return true;
      } catch {
        return false;
      }
    },
    close: async () => (await s3).destroy(),
  };
}
