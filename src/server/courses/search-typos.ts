import { sql } from 'drizzle-orm';
import type { Rows, SearchRunner } from './search-shared.js';

/**
 * Typo tolerance of course search and club search (docs/decisions/0040-search-typos.md): a
 * misspelt word is corrected to the nearest known word of titles and educator names
 * (search_word) or of club names and cities (club_search_word).
 */

/** Nearest known words looked at per misspelt word (trigram KNN). */
export const TYPO_NEIGHBOURS = 8;

const STOP_WORDS = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'or', 'the', 'to', 'with']);

/** Edits allowed in a word: none up to 3 letters, one up to 6, two beyond. */
const allowedEdits = (word: string) => (word.length <= 3 ? 0 : word.length <= 6 ? 1 : 2);

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), or max + 1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] <= max ? prev[b.length] : max + 1;
}

/**
 * The search with its misspelt words corrected, or null when no word needed (or found) a
 * correction. Candidates are the trigram nearest neighbours of each word among the words
 * of titles and educator names (`search_word`, GiST KNN: a handful of index pages
 * whatever the number of courses); the closest by edit distance wins, within one edit for
 * words of 4-6 letters and two beyond. One statement for every word at once. Club search
 * uses it over its own words (club_search_word).
 */
export async function correctTypos(
  run: SearchRunner,
  q: string,
  wordTable: 'search_word' | 'club_search_word' = 'search_word',
): Promise<string | null> {
  const words = typoWords(q);
  if (!words.length) return null;
  // One array parameter (the words are letters and digits only: a safe array literal), so the
  // text never changes and the statement is prepared once per search connection.
  const query = sql`
    select w.q, n.word
    from unnest(${`{${words.join(',')}}`}::text[]) as w(q)
    cross join lateral (select word from ${sql.identifier(wordTable)} order by word <-> w.q limit ${TYPO_NEIGHBOURS}) n`;
  const res = (run.prepared ? await run.prepared(`typo_candidates_${wordTable}`, query) : await run.db.execute(query)) as unknown as Rows<{
    q: string;
    word: string;
  }>;
  const candidates = new Map<string, string[]>();
  for (const row of res.rows) candidates.set(row.q, [...(candidates.get(row.q) ?? []), row.word]);
  return correctWith(q, candidates);
}

/** The words of a search that may be misspelt: four letters or more, not a stop word. */
const typoWords = (q: string) => q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4 && !STOP_WORDS.has(w));

/** The search with each misspelt word replaced by its closest candidate (edit distance), or null when none was. */
export function correctWith(q: string, candidates: Map<string, string[]>): string | null {
  const words = typoWords(q);
  let changed = false;
  const fixed = new Map<string, string>();
  for (const w of words) {
    const list = candidates.get(w) ?? [];
    if (list.includes(w)) continue; // a known word: not a typo
    const max = allowedEdits(w);
    let best: { word: string; edits: number } | null = null;
    for (const c of list) {
      const edits = editDistance(w, c, max);
      if (edits <= max && (!best || edits < best.edits)) best = { word: c, edits };
    }
    if (best) {
      fixed.set(w, best.word);
      changed = true;
    }
  }
  if (!changed) return null;
  return q
    .split(/([^\p{L}\p{N}]+)/u)
    .map((part) => fixed.get(part) ?? part)
    .join('');
}
