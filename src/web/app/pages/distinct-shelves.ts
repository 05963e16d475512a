/**
 * Shelves of cards where each item shows once: a shelf leaves out what the shelves above it
 * already show, then takes its first `perShelf` (the learner in London saw the same four
 * courses under "Near you" and "Starting soon").
 */
export function distinctShelves<T extends { id: string }>(shelves: T[][], perShelf: number): T[][] {
  const shown = new Set<string>();
  return shelves.map((items) => {
    const mine = items.filter((item) => !shown.has(item.id)).slice(0, perShelf);
    for (const item of mine) shown.add(item.id);
    return mine;
  });
}
