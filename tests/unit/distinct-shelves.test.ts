import { describe, expect, it } from 'vitest';
import { distinctShelves } from '../../src/web/app/pages/distinct-shelves.js';

const cards = (...ids: string[]) => ids.map((id) => ({ id }));
const ids = (shelves: { id: string }[][]) => shelves.map((s) => s.map((c) => c.id));

describe('distinctShelves', () => {
  it('a shelf leaves out what the shelves above show, then takes its first few', () => {
    const shelves = [cards('a', 'b', 'c', 'd', 'e'), cards('a', 'b', 'c', 'd', 'e', 'f', 'g'), cards('g', 'a', 'h', 'i')];
    expect(ids(distinctShelves(shelves, 4))).toEqual([
      ['a', 'b', 'c', 'd'],
      ['e', 'f', 'g'],
      ['h', 'i'],
    ]);
  });

  it('an item left out of a full shelf above (beyond its first few) may show below', () => {
    expect(ids(distinctShelves([cards('a', 'b', 'c'), cards('c', 'd')], 2))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('keeps empty shelves empty', () => {
    expect(ids(distinctShelves([[], cards('a')], 4))).toEqual([[], ['a']]);
  });
});
