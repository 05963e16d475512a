import { vi } from 'vitest';
import { badInputCorpus } from '../../support/bad-input-corpus.js';

// The route table is recorded from fastify's factory: mocked in this file, so this file runs in
// a module graph of its own (vitest project `own-modules`, vitest.config.ts).
vi.mock('fastify', async (original) => (await import('../../support/route-table.js')).recordRoutes(await original()));

/** The bad-input corpus, part 2 of CORPUS_PARTS (tests/support/bad-input-corpus.ts): the parts run in parallel workers. */
badInputCorpus(2);
