import fc from 'fast-check';
import type { JsonSchema } from './route-table.js';

/**
 * The bad-input corpus of issue 12: values a client can send that a schema must refuse
 * with a 4xx (never a 500). Named values cover the known failures (defect 7); the
 * arbitraries add random ones for the property-based run.
 */

export const ONE_MB = 'x'.repeat(1_000_000);

/** Values of the wrong JSON type for any field. */
export const WRONG_TYPES: unknown[] = [null, true, 0, 'text', [], ['a'], {}, { $gt: '' }];

export const BAD_STRINGS: string[] = [
  '\u0000',
  'a\u0000b',
  '%00',
  'a\ud800b',
  ONE_MB,
  '',
  ' \t\n',
  "'; drop table course; --",
  '../../etc/passwd',
  '2147483648',
];

/** Numbers as text (query strings, or a string where a number belongs). */
export const NUMERIC_STRINGS = ['2147483648', '-2147483649', '9223372036854775808', 'NaN', 'Infinity', '-0', '1e400', '0x10', '1.5'];

export const BAD_NUMBERS: number[] = [
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
  2 ** 63,
  1e308,
  -1e308,
  -1,
  0,
  0.5,
  -0.5,
  1e-10,
  Number.MAX_VALUE,
];

/** Raw JSON number texts JSON.parse turns into something odd (Infinity, -0, a rounded big integer). */
export const RAW_NUMBERS = ['1e400', '-1e400', '-0', '123456789012345678901234567890', '1.0000000000000000001'];

export const BAD_DATES = [
  '2027-02-30',
  '0000-00-00',
  '9999-99-99',
  '2026-02-29',
  '2026-04-31',
  '1899-12-31',
  '9999-12-31',
  '0001-01-01',
  '2026-1-1',
  '２０２６-01-01',
];
export const BAD_TIME_ZONES = [
  'US/Pacific-New',
  'SystemV/AST4',
  'localtime',
  'posix/Europe/London',
  'Factory',
  '+05:00',
  'Etc/GMT+14',
  'utc',
  ' UTC',
  'UTC\u0000',
];
export const BAD_DATETIMES = [
  '9999-12-31T23:00:00Z',
  '9999-12-20T10:00:00.000Z',
  '2027-02-30T10:00:00Z',
  '0000-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '2026-12-01T25:00:00Z',
  '2026-12-01T10:00:00+25:00',
  '+275760-09-13T00:00:00.000Z',
];

/** Path parameter values (sent percent-encoded in the path). */
export const BAD_PATH_VALUES = [
  '\u0000',
  'a\u0000b',
  'x'.repeat(5000),
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '..',
  '%',
  'ＡＢＣ',
  '1 OR 1=1',
  '-1',
  '2147483648',
];

/** Whole bodies that are not the JSON object the route wants: [content type, raw payload, what]. */
export const BAD_BODIES: [string | undefined, string | Buffer, string][] = [
  ['application/json', '{', 'truncated JSON'],
  ['application/json', '{"a":', 'truncated JSON'],
  ['application/json', 'nul', 'not JSON'],
  ['application/json', '\u0000', 'a NUL byte'],
  ['application/json', '{"title":"\u0000"}', 'a raw NUL byte inside a string'],
  ['application/json', 'null', 'JSON null'],
  ['application/json', '[]', 'a JSON array'],
  ['application/json', '"text"', 'a JSON string'],
  ['application/json', '12', 'a JSON number'],
  ['application/json', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}', 'prototype pollution keys'],
  ['application/json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`, 'deeply nested arrays'],
  ['application/json', `{"a":"${'y'.repeat(1_100_000)}"}`, 'a body over the 1 MB limit'],
  ['application/json', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'invalid UTF-8'],
  ['application/json; charset=utf-16', '{}', 'an unsupported charset'],
  ['text/plain', '{}', 'text/plain'],
  ['text/plain', '', 'an empty text/plain body'],
  ['application/x-www-form-urlencoded', 'a=b&title=x', 'a form body'],
  [
    'multipart/form-data; boundary=abc',
    '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nhello\r\n--xyz--\r\n',
    'a multipart body whose boundary does not match',
  ],
  ['multipart/form-data', '--xyz\r\n\r\n', 'multipart without a boundary'],
  ['application/xml', '<a/>', 'XML'],
  ['image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'raw bytes'],
  [undefined, '{"a":1}', 'no content type'],
];

/** A bad value fitting a field's declared type, or of the wrong type. */
export function badValuesFor(name: string, schema: JsonSchema): unknown[] {
  const types = ([] as string[]).concat(schema.type ?? (schema.anyOf ?? []).flatMap((s) => s.type ?? []));
  const values: unknown[] = [...WRONG_TYPES];
  if (types.includes('string') || !types.length) {
    values.push(...BAD_STRINGS);
    if (schema.format === 'uuid') values.push('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff');
    if (schema.pattern?.includes('\\d{4}-\\d{2}-\\d{2}$') || /(On|After|Before|date)$/i.test(name)) values.push(...BAD_DATES);
    if (/zone/i.test(name)) values.push(...BAD_TIME_ZONES);
    if (schema.format === 'date-time' || /At$/.test(name)) values.push(...BAD_DATETIMES);
  }
  if (types.includes('number') || types.includes('integer')) values.push(...BAD_NUMBERS, ...NUMERIC_STRINGS);
  if (types.includes('array'))
    values.push(
      [ONE_MB],
      ['\u0000'],
      Array.from({ length: 10_000 }, () => 'x'),
      [null],
      [[]],
    );
  return values;
}

/** Random bad values for the property-based run. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...WRONG_TYPES, ...BAD_STRINGS, ...NUMERIC_STRINGS, ...BAD_NUMBERS, ...BAD_DATES, ...BAD_TIME_ZONES, ...BAD_DATETIMES),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.date({ min: new Date(-62198755200000), max: new Date(253402300799000), noInvalidDate: true }).map((d) => d.toISOString()),
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.bigInt({ min: 2n ** 31n, max: 2n ** 70n }).map(Number)),
  fc.anything({ maxDepth: 2 }),
);
