import { describe, expect, it } from 'vitest';
import { formatDate, formatDateRange, groupKey, plural, relativeDayLabel, resultTotal, startsIn } from '../../src/web/lib/format.js';

/** The one set of display helpers: every screen writes a date range the same way. */
describe('web display helpers', () => {
  it('writes a date range with the year once when both dates share it', () => {
    expect(formatDateRange('2026-03-03', '2026-04-21')).toBe('3 Mar – 21 Apr 2026');
  });

  it('writes both years when a range crosses the new year, and one date for a one-day range', () => {
    expect(formatDateRange('2026-12-28', '2027-01-04')).toBe('28 Dec 2026 – 4 Jan 2027');
    expect(formatDateRange('2026-03-03', '2026-03-03')).toBe(formatDate('2026-03-03'));
    expect(formatDate('2026-03-03')).toMatch(/^Tue,? 3 Mar 2026$/);
  });

  it('names near days and counts', () => {
    const now = new Date('2026-03-03T10:00:00Z');
    expect(relativeDayLabel('2026-03-03', 'UTC', now)).toBe('Today');
    expect(relativeDayLabel('2026-03-04', 'UTC', now)).toBe('Tomorrow');
    expect(startsIn('2026-03-06', now)).toBe('in 3 days');
    expect(plural(1, 'class', 'classes')).toBe('1 class');
    expect(plural(2, 'class', 'classes')).toBe('2 classes');
  });

  it('writes a search total as exact, "about N" when estimated, "N+" when counting stopped', () => {
    expect(resultTotal({ total: 3400, totalKind: 'exact' })).toBe('3,400');
    expect(resultTotal({ total: 3400, totalKind: 'about' })).toBe('about 3,400');
    expect(resultTotal({ total: 1000, totalKind: 'atLeast' })).toBe('1,000+');
  });

  it('shows a two-factor key in groups of four (issue 23)', () => {
    const key = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSW';
    expect(key).toHaveLength(52);
    expect(groupKey(key)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP JBSW');
    expect(groupKey('ABCDEF')).toBe('ABCD EF');
    expect(groupKey('AB CD EF')).toBe('ABCD EF');
  });
});
