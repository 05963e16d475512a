/** The URL if it is an absolute http(s) link, else null: user-given links never run script. */
export function safeHref(raw: string): string | null {
  const value = raw.trim().replace(/^<|>$/g, '');
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A link target user text may carry: http(s), or a mailto: address. */
export function safeLinkHref(raw: string): string | null {
  const value = raw.trim();
  if (/^mailto:[^\s<>"]+@[^\s<>"]+$/i.test(value)) return value;
  return safeHref(value);
}
