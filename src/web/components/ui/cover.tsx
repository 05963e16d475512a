import { useId } from 'react';
import {
  Brush,
  Briefcase,
  Calculator,
  ChefHat,
  Code2,
  Dumbbell,
  FlaskConical,
  GraduationCap,
  HeartPulse,
  Languages,
  Music,
  PenLine,
  PartyPopper,
  Trophy,
  type LucideIcon,
} from 'lucide-react';

/** Each category: its icon and base hue (the palette varies around it per course). */
const LOOKS: Record<string, { Icon: LucideIcon; hue: number }> = {
  arts: { Icon: Brush, hue: 350 },
  business: { Icon: Briefcase, hue: 205 },
  coding: { Icon: Code2, hue: 245 },
  cooking: { Icon: ChefHat, hue: 28 },
  languages: { Icon: Languages, hue: 170 },
  mathematics: { Icon: Calculator, hue: 225 },
  music: { Icon: Music, hue: 300 },
  science: { Icon: FlaskConical, hue: 190 },
  sports: { Icon: Dumbbell, hue: 135 },
  wellbeing: { Icon: HeartPulse, hue: 330 },
  writing: { Icon: PenLine, hue: 40 },
  social: { Icon: PartyPopper, hue: 275 },
  sport: { Icon: Trophy, hue: 150 },
};
const FALLBACK = { Icon: GraduationCap, hue: 260 };

/** FNV-1a: a stable 32-bit number from a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A stream of numbers in [0, 1) from a seed (mulberry32). */
function stream(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
  const r = stream(hash(`${seed}|${title}|${category}`));
  const { hue } = LOOKS[category] ?? FALLBACK;
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

function Shape({ s }: { s: CoverDesign['shapes'][number] }) {
  const common = { fill: s.color, fillOpacity: s.opacity, transform: `rotate(${s.rotate} ${s.x} ${s.y})` };
  switch (s.kind) {
    case 'circle':
      return <circle cx={s.x} cy={s.y} r={s.size / 2} {...common} />;
    case 'ring':
      return <circle cx={s.x} cy={s.y} r={s.size / 2} fill="none" stroke={s.color} strokeOpacity={s.opacity + 0.1} strokeWidth={8} />;
    case 'bar':
      return <rect x={s.x - s.size} y={s.y - 10} width={s.size * 2} height={20} rx={10} {...common} />;
    case 'blob':
      return <rect x={s.x - s.size / 2} y={s.y - s.size / 2} width={s.size} height={s.size} rx={s.size / 4} {...common} />;
  }
}

/** The generated cover as an SVG that fills its box (16:9 design, cropped to the box). */
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
  const id = useId();
  const d = coverDesign(seed, title, category);
  const { Icon } = LOOKS[category] ?? FALLBACK;
  const rad = (d.angle * Math.PI) / 180;
  return (
    <svg
      viewBox="0 0 320 180"
      preserveAspectRatio="xMidYMid slice"
      className={className}
      aria-hidden="true"
      data-cover="generated"
      data-cover-key={`${d.from}|${d.to}|${d.shapes.map((s) => `${s.kind}${s.x},${s.y}`).join(';')}`}
    >
      <defs>
        <linearGradient
          id={`${id}g`}
          x1={0.5 - Math.cos(rad) / 2}
          y1={0.5 - Math.sin(rad) / 2}
          x2={0.5 + Math.cos(rad) / 2}
          y2={0.5 + Math.sin(rad) / 2}
        >
          <stop offset="0" stopColor={d.from} />
          <stop offset="1" stopColor={d.to} />
        </linearGradient>
      </defs>
      <rect width="320" height="180" fill={`url(#${id}g)`} />
      {d.shapes.map((s, i) => (
        <Shape key={i} s={s} />
      ))}
      <text
        x={d.icon.x < 160 ? 300 : 20}
        y={165}
        textAnchor={d.icon.x < 160 ? 'end' : 'start'}
        fontSize="120"
        fontWeight="800"
        fill="#ffffff"
        fillOpacity="0.16"
        fontFamily="ui-sans-serif, system-ui, sans-serif"
      >
        {d.initial}
      </text>
      <circle cx={d.icon.x + 32} cy={d.icon.y + 32} r={44} fill="#ffffff" fillOpacity="0.18" />
      <Icon x={d.icon.x} y={d.icon.y} width={64} height={64} color="#ffffff" strokeWidth={1.6} />
    </svg>
  );
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
