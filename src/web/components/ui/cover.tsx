import { useMemo } from 'react';
import { seededRandom } from '@shared/random';

/**
 * The category icons of the generated covers: lucide's (ISC licence), their SVG children as
 * markup, since a cover is drawn as an SVG image, not as elements of the page (decision 0033).
 */
const ICONS: Record<string, string> = {
  arts: "<path d='m11 10 3 3'/><path d='M6.5 21A3.5 3.5 0 1 0 3 17.5a2.62 2.62 0 0 1-.708 1.792A1 1 0 0 0 3 21z'/><path d='M9.969 17.031 21.378 5.624a1 1 0 0 0-3.002-3.002L6.967 14.031'/>",
  business: "<path d='M16 20V4a2 2 0 0 0-2-2h-4a2 2 0 0 0-2 2v16'/><rect width='20' height='14' x='2' y='6' rx='2'/>",
  coding: "<path d='m18 16 4-4-4-4'/><path d='m6 8-4 4 4 4'/><path d='m14.5 4-5 16'/>",
  cooking:
    "<path d='M10 11v5'/><path d='M14 11v5'/><path d='M6 12.65c0-.457-.316-.844-.727-1.041A4 4 0 017.52 4.034a1.53 1.53 0 001.367-.547 4 4 0 016.225 0 1.53 1.53 0 001.367.547 4 4 0 012.248 7.575c-.411.197-.727.584-.727 1.04V19a2 2 0 01-2 2H8a2 2 0 01-2-2z'/><path d='M6 16h12'/>",
  languages:
    "<path d='m5 8 6 6'/><path d='m4 14 6-6 2-3'/><path d='M2 5h12'/><path d='M7 2h1'/><path d='m22 22-5-10-5 10'/><path d='M14 18h6'/>",
  mathematics:
    "<rect width='16' height='20' x='4' y='2' rx='2'/><line x1='8' x2='16' y1='6' y2='6'/><line x1='16' x2='16' y1='14' y2='18'/><path d='M16 10h.01'/><path d='M12 10h.01'/><path d='M8 10h.01'/><path d='M12 14h.01'/><path d='M8 14h.01'/><path d='M12 18h.01'/><path d='M8 18h.01'/>",
  music:
    "<path d='M21 16V3a1 1 0 0 0-1.28-.96l-10 2.917a1 1 0 0 0-.72.96V19'/><circle cx='18' cy='16' r='3'/><circle cx='6' cy='19' r='3'/>",
  science:
    "<path d='M14 2v6a2 2 0 0 0 .245.96l5.51 10.08A2 2 0 0 1 18 22H6a2 2 0 0 1-1.755-2.96l5.51-10.08A2 2 0 0 0 10 8V2'/><path d='M6.453 15h11.094'/><path d='M8.5 2h7'/>",
  sports:
    "<path d='M17.596 12.768a2 2 0 1 0 2.829-2.829l-1.768-1.767a2 2 0 0 0 2.828-2.829l-2.828-2.828a2 2 0 0 0-2.829 2.828l-1.767-1.768a2 2 0 1 0-2.829 2.829z'/><path d='m2.5 21.5 1.4-1.4'/><path d='m20.1 3.9 1.4-1.4'/><path d='M5.343 21.485a2 2 0 1 0 2.829-2.828l1.767 1.768a2 2 0 1 0 2.829-2.829l-6.364-6.364a2 2 0 1 0-2.829 2.829l1.768 1.767a2 2 0 0 0-2.828 2.829z'/><path d='m9.6 14.4 4.8-4.8'/>",
  wellbeing:
    "<path d='M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5'/><path d='M3.22 13H9.5l.5-1 2 4.5 2-7 1.5 3.5h5.27'/>",
  writing:
    "<path d='M13 21h8'/><path d='M21.174 6.812a1 1 0 0 0-3.986-3.987L3.842 16.174a2 2 0 0 0-.5.83l-1.321 4.352a.5.5 0 0 0 .623.622l4.353-1.32a2 2 0 0 0 .83-.497z'/>",
  social:
    "<path d='M5.8 11.3 2 22l10.7-3.79'/><path d='M4 3h.01'/><path d='M22 8h.01'/><path d='M15 2h.01'/><path d='M22 20h.01'/><path d='m22 2-2.24.75a2.9 2.9 0 0 0-1.96 3.12c.1.86-.57 1.63-1.45 1.63h-.38c-.86 0-1.6.6-1.76 1.44L14 10'/><path d='m22 13-.82-.33c-.86-.34-1.82.2-1.98 1.11c-.11.7-.72 1.22-1.43 1.22H17'/><path d='m11 2 .33.82c.34.86-.2 1.82-1.11 1.98C9.52 4.9 9 5.52 9 6.23V7'/><path d='M11 13c1.93 1.93 2.83 4.17 2 5-.83.83-3.07-.07-5-2-1.93-1.93-2.83-4.17-2-5 .83-.83 3.07.07 5 2Z'/>",
  sport:
    "<path d='M10 14.66V17a1 1 0 0 1-1 1 2 2 0 0 0-2 2v2'/><path d='M14 14.66V17a1 1 0 0 0 1 1 2 2 0 0 1 2 2v2'/><path d='M17.916 10H19.5A2.5 2.5 0 0 0 22 7.5V5a1 1 0 0 0-1-1h-3'/><path d='M4 22h16'/><path d='M6 9a6 6 0 0 0 12 0V3a1 1 0 0 0-1-1H7a1 1 0 0 0-1 1z'/><path d='M6.084 10H4.5A2.5 2.5 0 0 1 2 7.5V5a1 1 0 0 1 1-1h3'/>",
  fallback:
    "<path d='M21.42 10.922a1 1 0 0 0-.019-1.838L12.83 5.18a2 2 0 0 0-1.66 0L2.6 9.08a1 1 0 0 0 0 1.832l8.57 3.908a2 2 0 0 0 1.66 0z'/><path d='M22 10v6'/><path d='M6 12.5V16a6 3 0 0 0 12 0v-3.5'/>",
};

/** Each category's base hue (the palette varies around it per course). */
const HUES: Record<string, number> = {
  arts: 350,
  business: 205,
  coding: 245,
  cooking: 28,
  languages: 170,
  mathematics: 225,
  music: 300,
  science: 190,
  sports: 135,
  wellbeing: 330,
  writing: 40,
  social: 275,
  sport: 150,
};
const FALLBACK_HUE = 260;

/** FNV-1a: a stable 32-bit number from a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface CoverDesign {
  from: string;
  to: string;
  angle: number;
  shapes: {
    kind: 'circle' | 'ring' | 'blob' | 'bar';
    x: number;
    y: number;
    size: number;
    rotate: number;
    color: string;
    opacity: number;
  }[];
  icon: { x: number; y: number };
  initial: string;
}

/**
 * The generated cover of a course (or club) without an uploaded image: a palette around
 * its category's hue, shapes placed from its id and title, the category's icon. Pure and
 * deterministic: the same course always gets the same cover, two courses almost never
 * the same one. Drawn inline as SVG: nothing is fetched.
 */
export function coverDesign(seed: string, title: string, category: string): CoverDesign {
  const r = seededRandom(hash(`${seed}|${title}|${category}`));
  const hue = HUES[category] ?? FALLBACK_HUE;
  const h1 = (hue + Math.floor(r() * 40) - 20 + 360) % 360;
  const h2 = (h1 + 25 + Math.floor(r() * 50)) % 360;
  const kinds = ['circle', 'ring', 'blob', 'bar'] as const;
  const shapes = Array.from({ length: 4 + Math.floor(r() * 3) }, () => ({
    kind: kinds[Math.floor(r() * kinds.length)],
    x: Math.round(r() * 320),
    y: Math.round(r() * 180),
    size: Math.round(30 + r() * 90),
    rotate: Math.round(r() * 180),
    color: r() < 0.5 ? '#ffffff' : `hsl(${(h2 + 40) % 360} 85% ${55 + Math.floor(r() * 20)}%)`,
    opacity: Math.round((0.12 + r() * 0.22) * 100) / 100,
  }));
  const left = r() < 0.5;
  return {
    from: `hsl(${h1} 62% ${36 + Math.floor(r() * 10)}%)`,
    to: `hsl(${h2} 70% ${48 + Math.floor(r() * 12)}%)`,
    angle: Math.floor(r() * 4) * 45,
    shapes,
    icon: { x: left ? 44 : 212, y: 58 + Math.floor(r() * 30) },
    initial: (title.trim()[0] ?? '').toUpperCase(),
  };
}

/** Text for an SVG attribute or text node. */
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function shapeMarkup(s: CoverDesign['shapes'][number]): string {
  const common = `fill="${s.color}" fill-opacity="${s.opacity}" transform="rotate(${s.rotate} ${s.x} ${s.y})"`;
  switch (s.kind) {
    case 'circle':
      return `<circle cx="${s.x}" cy="${s.y}" r="${s.size / 2}" ${common}/>`;
    case 'ring':
      return `<circle cx="${s.x}" cy="${s.y}" r="${s.size / 2}" fill="none" stroke="${s.color}" stroke-opacity="${s.opacity + 0.1}" stroke-width="8"/>`;
    case 'bar':
      return `<rect x="${s.x - s.size}" y="${s.y - 10}" width="${s.size * 2}" height="20" rx="10" ${common}/>`;
    case 'blob':
      return `<rect x="${s.x - s.size / 2}" y="${s.y - s.size / 2}" width="${s.size}" height="${s.size}" rx="${s.size / 4}" ${common}/>`;
  }
}

/** The generated cover as an SVG document (16:9, cropped to its box when drawn). */
export function coverSvg(d: CoverDesign, category: string): string {
  const rad = (d.angle * Math.PI) / 180;
  const left = d.icon.x < 160;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180" preserveAspectRatio="xMidYMid slice">',
    `<defs><linearGradient id="g" x1="${0.5 - Math.cos(rad) / 2}" y1="${0.5 - Math.sin(rad) / 2}" x2="${0.5 + Math.cos(rad) / 2}" y2="${0.5 + Math.sin(rad) / 2}">`,
    `<stop offset="0" stop-color="${d.from}"/><stop offset="1" stop-color="${d.to}"/></linearGradient></defs>`,
    '<rect width="320" height="180" fill="url(#g)"/>',
    ...d.shapes.map(shapeMarkup),
    `<text x="${left ? 300 : 20}" y="165" text-anchor="${left ? 'end' : 'start'}" font-size="120" font-weight="800" fill="#ffffff" fill-opacity="0.16" font-family="ui-sans-serif, system-ui, sans-serif">${xml(d.initial)}</text>`,
    `<circle cx="${d.icon.x + 32}" cy="${d.icon.y + 32}" r="44" fill="#ffffff" fill-opacity="0.18"/>`,
    `<svg x="${d.icon.x}" y="${d.icon.y}" width="64" height="64" viewBox="0 0 24 24" fill="none" stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${ICONS[category] ?? ICONS.fallback}</svg>`,
    '</svg>',
  ].join('');
}

/**
 * The generated cover: one image (an SVG data URL) that fills its box, where drawing it as
 * inline SVG made 15 to 20 elements per card (decision 0033). Decorative: no alternative text.
 */
export function GeneratedCover({
  seed,
  title,
  category,
  className = '',
}: {
  seed: string;
  title: string;
  category: string;
  className?: string;
}) {
  const { src, key } = useMemo(() => {
    const d = coverDesign(seed, title, category);
    return {
      src: `data:image/svg+xml,${encodeURIComponent(coverSvg(d, category))}`,
      key: `${d.from}|${d.to}|${d.shapes.map((s) => `${s.kind}${s.x},${s.y}`).join(';')}`,
    };
  }, [seed, title, category]);
  return <img src={src} alt="" className={`object-cover ${className}`} data-cover="generated" data-cover-key={key} />;
}

/** The course's cover image, or its generated cover without one. */
export function CourseCover({
  src,
  seed,
  title,
  category,
  className = '',
}: {
  src: string | null;
  /** The course's id (the generated cover is derived from it). */
  seed: string;
  title: string;
  category: string;
  className?: string;
}) {
  if (src) return <img src={src} alt="" loading="lazy" className={`bg-slate-100 object-cover ${className}`} />;
  return <GeneratedCover seed={seed} title={title} category={category} className={`block ${className}`} />;
}
