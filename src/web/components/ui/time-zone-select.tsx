import { useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Check, ChevronDown } from 'lucide-react';
import { POSTGRES_TIME_ZONES } from '@shared/time-zones';
import { viewerTimeZone } from '@web/lib/format';

export interface TimeZoneOption {
  /** The IANA name, the value sent to the API ("Europe/London"). */
  id: string;
  /** "London (GMT+0)". */
  label: string;
  /** "Europe · GMT+0", shown under the label and searched too. */
  detail: string;
  /** Minutes east of UTC now, for the order. */
  offset: number;
}

/** "GMT+1", "GMT-4:30", "GMT+0" for a zone now. */
function offsetOf(zone: string, at: Date): { text: string; minutes: number } {
  try {
    const part = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    const m = /GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?/.exec(part ?? '');
    if (!m) return { text: 'GMT+0', minutes: 0 };
    const minutes = m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
    return { text: m[1] ? `GMT${m[1]}${Number(m[2])}${m[3] ? `:${m[3]}` : ''}` : 'GMT+0', minutes };
  } catch {
    return { text: 'GMT+0', minutes: 0 };
  }
}

let cache: TimeZoneOption[] | null = null;

/**
 * Every zone both the browser and PostgreSQL know (a session's zone is used in SQL), with a
 * friendly name ("London (GMT+0)"), the viewer's own zone first, then by offset and name.
 */
export function timeZoneOptions(): TimeZoneOption[] {
  if (cache) return cache;
  let zones: string[] = [];
  try {
    zones = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  const own = viewerTimeZone();
  const set = new Set([...zones, own, 'UTC'].filter((z) => POSTGRES_TIME_ZONES.has(z)));
  const now = new Date();
  const options = [...set].map((id) => {
    const { text, minutes } = offsetOf(id, now);
    const parts = id.split('/');
    const city = parts[parts.length - 1].replace(/_/g, ' ');
    const region = parts.length > 1 ? parts.slice(0, -1).join(' / ').replace(/_/g, ' ') : 'Universal';
    return { id, label: `${city} (${text})`, detail: `${region} · ${id}`, offset: minutes };
  });
  options.sort((a, b) => (a.id === own ? -1 : b.id === own ? 1 : a.offset - b.offset || a.label.localeCompare(b.label)));
  cache = options;
  return options;
}

export const timeZoneLabel = (id: string) => timeZoneOptions().find((o) => o.id === id)?.label ?? id.replace(/_/g, ' ');

const MAX_SHOWN = 80;

/**
 * The time-zone field: a searchable combobox (WAI-ARIA combobox with a list popup). Type
 * a city, a region or "GMT+2"; arrows move, Enter picks, Escape closes. The viewer's own
 * zone comes first. The value is the IANA name.
 */
export function TimeZoneSelect({
  label,
  value,
  onChange,
  onBlur,
  name,
  error,
  hint,
  id,
  className = '',
}: {
  label: string;
  value: string;
  onChange: (zone: string) => void;
  onBlur?: () => void;
  name?: string;
  error?: string;
  hint?: ReactNode;
  id?: string;
  className?: string;
}) {
  const auto = useId();
  const inputId = id ?? auto;
  const listId = `${inputId}-list`;
  const options = useMemo(() => timeZoneOptions(), []);
  const own = useMemo(() => viewerTimeZone(), []);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const shown = useMemo(() => {
    const words = (query ?? '').toLowerCase().replace(/_/g, ' ').split(/\s+/).filter(Boolean);
    const matches = words.length
      ? options.filter((o) => {
          const text = `${o.label} ${o.detail}`.toLowerCase().replace(/_/g, ' ');
          return words.every((w) => text.includes(w));
        })
      : options;
    return matches.slice(0, MAX_SHOWN);
  }, [options, query]);

  const current = options.find((o) => o.id === value);
  const text = query ?? current?.label ?? value;
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));

  function scrollTo(index: number) {
    list.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: 'nearest' });
  }
  function move(to: number) {
    if (!open) setOpen(true);
    const next = Math.max(0, Math.min(shown.length - 1, to));
    setActive(next);
    requestAnimationFrame(() => scrollTo(next));
  }
  function pick(option: TimeZoneOption) {
    onChange(option.id);
    setQuery(null);
    setOpen(false);
    input.current?.focus();
  }
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(
          Math.max(
            0,
            shown.findIndex((o) => o.id === value),
          ),
        );
      } else move(activeIndex + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      move(activeIndex - 1);
    } else if (e.key === 'Home' && open) {
      e.preventDefault();
      move(0);
    } else if (e.key === 'End' && open) {
      e.preventDefault();
      move(shown.length - 1);
    } else if (e.key === 'Enter') {
      if (open && shown[activeIndex]) {
        e.preventDefault();
        pick(shown[activeIndex]);
      }
    } else if (e.key === 'Escape') {
      if (open || query !== null) {
        e.preventDefault();
        setOpen(false);
        setQuery(null);
      }
    } else if (e.key === 'Tab' && open && query && shown[activeIndex]) {
      // Leaving with a search typed keeps the highlighted match, as a select would.
      onChange(shown[activeIndex].id);
      setQuery(null);
      setOpen(false);
    }
  }

  const describedBy = [hint && !error && `${inputId}-hint`, error && `${inputId}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`relative ${className}`}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          ref={input}
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && shown[activeIndex] ? `${listId}-${activeIndex}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={(e) => e.target.select()}
          onClick={() => setOpen(true)}
          onKeyDown={onKeyDown}
          onBlur={() => {
            // A click on an option keeps the focus (mousedown is prevented there).
            setOpen(false);
            setQuery(null);
            onBlur?.();
          }}
          className={`block w-full rounded-lg border bg-white py-2.5 pl-3 pr-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-500 ${
            error ? 'border-red-500' : 'border-slate-300'
          }`}
        />
        <button
          type="button"
          tabIndex={-1}
          aria-label={open ? 'Close the list of time zones' : 'Show the list of time zones'}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            setOpen((o) => !o);
            input.current?.focus();
          }}
          className="absolute inset-y-0 right-0 flex w-9 items-center justify-center text-slate-500"
        >
          <ChevronDown className="h-4 w-4" aria-hidden="true" />
        </button>
        {name && <input type="hidden" name={name} value={value} />}
      </div>
      <ul
        ref={list}
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!open}
        className="absolute z-30 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
      >
        {shown.length === 0 && (
          <li role="presentation" className="px-3 py-2 text-slate-600">
            No time zone matches &ldquo;{query}&rdquo;
          </li>
        )}
        {shown.map((o, i) => (
          // The keyboard works through the combobox input (aria-activedescendant), as the ARIA pattern has it.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={o.id}
            id={`${listId}-${i}`}
            data-index={i}
            role="option"
            aria-selected={o.id === value}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => pick(o)}
            className={`flex cursor-pointer items-start gap-2 px-3 py-2 ${i === activeIndex ? 'bg-brand-50' : ''}`}
          >
            <Check className={`mt-0.5 h-4 w-4 shrink-0 ${o.id === value ? 'text-brand-700' : 'invisible'}`} aria-hidden="true" />
            <span className="min-w-0">
              <span className="block font-medium text-slate-900">
                {o.label}
                {o.id === own && <span className="ml-2 text-xs font-normal text-brand-700">Your time zone</span>}
              </span>
              <span className="block truncate text-xs text-slate-600">{o.detail}</span>
            </span>
          </li>
        ))}
      </ul>
      {hint && !error && (
        <p id={`${inputId}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${inputId}-error`} className="mt-1 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
