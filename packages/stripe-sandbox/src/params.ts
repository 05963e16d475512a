import type { FormObject, FormValue } from './form.js';
import { invalidInteger, invalidParam, missingParam } from './errors.js';

/**
 * Typed reads of form parameters with Stripe's validation errors. `path` is the name
 * reported in `param` (e.g. `line_items[0][quantity]`).
 */
export class Params {
  constructor(
    readonly raw: FormObject,
    readonly path = '',
  ) {}

  private name(key: string) {
    return this.path ? `${this.path}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  str(key: string): string | undefined;
  str(key: string, required: true): string;
  str(key: string, required = false): string | undefined {
    const v = this.raw[key];
    if (v === undefined || v === '') {
      if (required) throw missingParam(this.name(key));
      return undefined;
    }
    if (typeof v !== 'string') throw invalidParam(this.name(key), `Invalid string: ${JSON.stringify(v)}`);
    return v;
  }

  int(key: string): number | undefined;
  int(key: string, required: true): number;
  int(key: string, required = false): number | undefined {
    const v = this.str(key, required as true);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw invalidInteger(this.name(key), v);
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw invalidInteger(this.name(key), v);
    return n;
  }

  num(key: string): number | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n)) throw invalidParam(this.name(key), `Invalid decimal: ${v}`, 'parameter_invalid_decimal');
    return n;
  }

  bool(key: string): boolean | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw invalidParam(this.name(key), `Invalid boolean: ${v}`, 'parameter_invalid_boolean');
  }

  oneOf<T extends string>(key: string, values: readonly T[], required = false): T | undefined {
    const v = required ? this.str(key, true) : this.str(key);
    if (v === undefined) return undefined;
    if (!values.includes(v as T)) {
      throw invalidParam(this.name(key), `Invalid ${key}: must be one of ${values.join(', ')}`, 'parameter_invalid_string');
    }
    return v as T;
  }

  /** A nested hash (`metadata[...]`, `price_data[...]`). */
  obj(key: string): Params | undefined;
  obj(key: string, required: true): Params;
  obj(key: string, required = false): Params | undefined {
    const v = this.raw[key];
    if (v === undefined || v === '') {
      if (required) throw missingParam(this.name(key));
      return undefined;
    }
    if (typeof v === 'string' || Array.isArray(v)) throw invalidParam(this.name(key), `Invalid hash`, 'parameter_invalid_hash');
    return new Params(v, this.name(key));
  }

  /** An array of hashes (`line_items[0][...]`). */
  list(key: string): Params[] {
    const v = this.raw[key];
    if (v === undefined || v === '') return [];
    const arr: FormValue[] = Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v) : [];
    if (!Array.isArray(v) && typeof v !== 'object') throw invalidParam(this.name(key), 'Invalid array', 'parameter_invalid_array');
    return arr.map((item, i) => {
      if (typeof item !== 'object' || Array.isArray(item))
        throw invalidParam(`${this.name(key)}[${i}]`, 'Invalid hash', 'parameter_invalid_hash');
      return new Params(item, `${this.name(key)}[${i}]`);
    });
  }

  /** An array of strings (`expand[]`). */
  strings(key: string): string[] {
    const v = this.raw[key];
    if (v === undefined || v === '') return [];
    if (typeof v === 'string') return [v];
    const arr = Array.isArray(v) ? v : Object.values(v);
    return arr.filter((x): x is string => typeof x === 'string');
  }

  /** Stripe metadata: string values, `''` deletes a key (in updates). */
  metadata(key = 'metadata'): Record<string, string> | undefined {
    const v = this.raw[key];
    if (v === undefined) return undefined;
    if (v === '') return {};
    if (typeof v !== 'object' || Array.isArray(v)) throw invalidParam(this.name(key), 'Invalid hash', 'parameter_invalid_hash');
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(v)) {
      if (typeof val !== 'string') throw invalidParam(`${this.name(key)}[${k}]`, 'Metadata values must be strings');
      if (k.length > 40) throw invalidParam(`${this.name(key)}[${k}]`, 'Metadata keys can have up to 40 characters');
      if (val.length > 500) throw invalidParam(`${this.name(key)}[${k}]`, 'Metadata values can have up to 500 characters');
      out[k] = val;
    }
    return out;
  }
}

/** Merges a metadata update as Stripe does (empty value deletes the key). */
export function mergeMetadata(current: Record<string, string> | null | undefined, update: Record<string, string> | undefined) {
  if (update === undefined) return current ?? {};
  if (Object.keys(update).length === 0) return {};
  const out = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(update)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}
