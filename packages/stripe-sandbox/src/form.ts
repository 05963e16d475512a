/**
 * Stripe's form encoding: application/x-www-form-urlencoded with bracket notation, as the
 * SDK writes it (`line_items[0][price_data][unit_amount]=100`, `metadata[k]=v`,
 * `expand[0]=x` or `expand[]=x`). A small qs-style parser: objects whose keys are all
 * indices become arrays. Every leaf is a string (Stripe's API coerces per parameter).
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const MAX_DEPTH = 8;
const MAX_PAIRS = 2000;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/** `a[b][0][]` → ['a', 'b', '0', ''] */
function keyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const path = [key.slice(0, open)];
  const re = /\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  re.lastIndex = open;
  while ((m = re.exec(key)) && path.length <= MAX_DEPTH) path.push(m[1]);
  return path;
}

export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  if (!body) return root;
  const pairs = body.split('&').slice(0, MAX_PAIRS);
  for (const pair of pairs) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const path = keyPath(key);
    if (path.some((p) => FORBIDDEN.has(p))) continue;
    let node: Record<string, FormValue> = root;
    for (let i = 0; i < path.length; i++) {
      let seg = path[i];
      const last = i === path.length - 1;
      // `[]`: append (the next free index)
      if (seg === '') seg = String(Object.keys(node).length);
      if (last) {
        node[seg] = value;
      } else {
        const next = node[seg];
        if (next === undefined || typeof next === 'string') node[seg] = {};
        node = node[seg] as Record<string, FormValue>;
      }
    }
  }
  return arrayify(root) as FormObject;
}

/** Objects keyed 0..n-1 become arrays, recursively. */
function arrayify(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  for (const k of keys) value[k] = arrayify(value[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => value[String(k)]);
  }
  return value;
}
