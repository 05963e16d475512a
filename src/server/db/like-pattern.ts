/** A LIKE/ILIKE pattern that finds `q` anywhere, its own `%`, `_` and `\` matched as themselves. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
