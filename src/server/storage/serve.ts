import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FileInfo, FileStore } from './store.js';
import { isPrivateKey, isStorageKey, UPLOADS_PREFIX } from './keys.js';

/** A key's bytes never change (keys.ts): a year, and no revalidation while fresh. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET and HEAD /uploads/<folder>/<name>: a stored file from whichever backend is configured,
 * with a strong ETag (the SHA-256 of its bytes), immutable caching and 304 on If-None-Match.
 * Only a key of the server's own shape is looked up (keys.ts); anything else is a 404. With a
 * public base URL (a CDN before the bucket), the answer is a permanent redirect there.
 */
export function registerUploadRoutes(app: FastifyInstance, files: FileStore): void {
  const url = `${UPLOADS_PREFIX}:folder/:name`;
  // Files, not API: kept out of the API docs, as the static plugin kept them before.
  app.get(url, { exposeHeadRoute: false, schema: { hide: true } }, (request, reply) => serve(request, reply, 'GET'));
  app.head(url, { schema: { hide: true } }, (request, reply) => serve(request, reply, 'HEAD'));

  async function serve(request: FastifyRequest, reply: FastifyReply, method: 'GET' | 'HEAD') {
    const { folder, name } = request.params as { folder: string; name: string };
    const key = `${folder}/${name}`;
    if (!isStorageKey(key) || isPrivateKey(key)) return notFound(reply);
    const elsewhere = files.publicUrl(key);
    if (elsewhere) return reply.status(301).header('cache-control', IMMUTABLE).redirect(elsewhere, 301);

    const conditional = request.headers['if-none-match'];
    if (conditional || method === 'HEAD') {
      const info = await files.head(key);
      if (!info) return notFound(reply);
      fileHeaders(reply, info);
      if (conditional && matches(conditional, info.sha256)) return reply.status(304).send();
      if (method === 'HEAD') return reply.header('content-length', String(info.size)).send();
    }
    const file = await files.get(key);
    if (!file) return notFound(reply);
    fileHeaders(reply, file);
    return reply.header('content-length', String(file.size)).send(file.body);
  }
}

function fileHeaders(reply: FastifyReply, info: FileInfo) {
  reply
    .header('etag', `"${info.sha256}"`)
    .header('cache-control', IMMUTABLE)
    .header('x-content-type-options', 'nosniff')
    .type(info.contentType);
}

function notFound(reply: FastifyReply) {
  return reply
    .status(404)
    .header('cache-control', 'no-cache')
    .send({ error: { code: 'not_found', message: 'There is no file at this address' } });
}

/** If-None-Match: `*`, or a list of entity tags compared weakly (RFC 9110 13.1.2). */
function matches(header: string, sha256: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${sha256}"`);
}
