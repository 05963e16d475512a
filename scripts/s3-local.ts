/**
 * `npm run s3:local`: a local S3-compatible server (s3rver, a development dependency) for a
 * fleet started from plain processes, and for trying the S3 store by hand. Listens on
 * 127.0.0.1:$S3_LOCAL_PORT (9000), keeps objects under $S3_LOCAL_DIR (./data/s3), makes the
 * bucket $S3_BUCKET (agora), prints the app's environment for it as KEY=value lines, and runs
 * until SIGTERM or SIGINT. Not for production: use a real S3-compatible store there.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startS3Server } from '../tests/support/s3-server.js';

const port = Number(process.env.S3_LOCAL_PORT ?? 9000);
const directory = path.resolve(process.env.S3_LOCAL_DIR ?? './data/s3');
mkdirSync(directory, { recursive: true });
const server = await startS3Server({ port, directory, bucket: process.env.S3_BUCKET ?? 'agora' });
for (const [name, value] of Object.entries(server.env)) console.log(`${name}=${value}`);
console.log(`# S3-compatible server on ${server.endpoint}, objects in ${directory}`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
