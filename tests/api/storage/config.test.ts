/** Which file store the configuration selects, and what it refuses (one line naming the variable). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config.js';

const PG = 'postgres://db.internal/agora';

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('the file store the configuration selects', () => {
  it('disk with nothing set (npm start unchanged), PostgreSQL with DATABASE_URL, S3 with S3_BUCKET', () => {
    expect(loadConfig({}).storage).toEqual({ backend: 'disk' });
    expect(loadConfig({ DATABASE_URL: PG }).storage).toEqual({ backend: 'postgres' });
    expect(loadConfig({ DATABASE_URL: PG, S3_BUCKET: 'agora-files' }).storage).toEqual({
      backend: 's3',
      s3: {
        bucket: 'agora-files',
        endpoint: undefined,
        region: 'us-east-1',
        credentials: undefined,
        forcePathStyle: false,
        publicBaseUrl: undefined,
      },
    });
  });

  it('STORAGE_BACKEND wins (a shared mount with DATABASE_URL: disk)', () => {
    expect(loadConfig({ DATABASE_URL: PG, STORAGE_BACKEND: 'disk' }).storage).toEqual({ backend: 'disk' });
    expect(loadConfig({ STORAGE_BACKEND: 'postgres' }).storage).toEqual({ backend: 'postgres' });
  });

  it('every S3 variable reaches the store', () => {
    const storage = loadConfig({
      S3_BUCKET: 'agora-files',
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PUBLIC_BASE_URL: 'https://cdn.example.com/files/',
    }).storage;
    expect(storage).toEqual({
      backend: 's3',
      s3: {
        bucket: 'agora-files',
        endpoint: 'http://minio.internal:9000',
        region: 'eu-central-1',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
        forcePathStyle: true,
        publicBaseUrl: 'https://cdn.example.com/files',
      },
    });
  });

  it('refuses what cannot work, naming the variable', () => {
    expect(failure({ STORAGE_BACKEND: 's3' })).toBe('Invalid configuration: S3_BUCKET is required when STORAGE_BACKEND is s3');
    expect(failure({ STORAGE_BACKEND: 'ftp' })).toMatch(/^Invalid configuration: STORAGE_BACKEND /);
    expect(failure({ S3_BUCKET: 'Bad_Bucket' })).toMatch(/^Invalid configuration: S3_BUCKET must be an S3 bucket name/);
    expect(failure({ S3_BUCKET: 'agora-files', S3_ACCESS_KEY_ID: 'key' })).toBe(
      'Invalid configuration: S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID',
    );
    expect(failure({ S3_BUCKET: 'agora-files', S3_SECRET_ACCESS_KEY: 'secret' })).toBe(
      'Invalid configuration: S3_ACCESS_KEY_ID must be set together with S3_SECRET_ACCESS_KEY',
    );
    expect(failure({ S3_BUCKET: 'agora-files', S3_ENDPOINT: 'minio:9000' })).toMatch(/^Invalid configuration: S3_ENDPOINT must be a URL/);
    expect(failure({ S3_BUCKET: 'agora-files', S3_FORCE_PATH_STYLE: 'yes' })).toMatch(/^Invalid configuration: S3_FORCE_PATH_STYLE /);
  });
});
