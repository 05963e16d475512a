import { forwardRef, useMemo, type ComponentProps } from 'react';
import { viewerTimeZone } from '@web/lib/format';
import { Select } from './inputs';

/** Every IANA zone the browser knows (with the browser's own zone and UTC guaranteed). */
export function timeZones(): string[] {
  let zones: string[] = [];
  try {
    zones = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  const set = new Set(zones);
  set.add(viewerTimeZone());
  set.add('UTC');
  return [...set].sort();
}

/** A select of every time zone, labelled with spaces for underscores ("America/New York"). */
export const TimeZoneSelect = forwardRef<HTMLSelectElement, Omit<ComponentProps<typeof Select>, 'children'>>(
  function TimeZoneSelect(props, ref) {
    const zones = useMemo(timeZones, []);
    return (
      <Select ref={ref} {...props}>
        {zones.map((z) => (
          <option key={z} value={z}>
            {z.replace(/_/g, ' ')}
          </option>
        ))}
      </Select>
    );
  },
);
