/** The range presets of the analytics page, kept in the URL as ?range= (or ?from=&to= for custom). */
export const PRESETS = [
  { id: '7d', label: 'Last 7 days', days: 7 },
  { id: '30d', label: 'Last 30 days', days: 30 },
  { id: '90d', label: 'Last 90 days', days: 90 },
  { id: '12m', label: 'Last 12 months', days: 365 },
] as const;
export type PresetId = (typeof PRESETS)[number]['id'];

const today = () => new Date().toISOString().slice(0, 10);
const minusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** The range a URL asks for: a preset (default 30 days) or custom dates. */
export function rangeFromSearch(search: URLSearchParams): { preset: PresetId | 'custom'; from: string; to: string } {
  const from = search.get('from');
  const to = search.get('to');
  if (search.get('range') === 'custom' || (from && to))
    return { preset: 'custom', from: from ?? minusDays(today(), 29), to: to ?? today() };
  const preset = PRESETS.find((p) => p.id === search.get('range')) ?? PRESETS[1];
  return { preset: preset.id, from: minusDays(today(), preset.days - 1), to: today() };
}
