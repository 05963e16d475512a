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

const LOOKS: Record<string, { Icon: LucideIcon; bg: string }> = {
  arts: { Icon: Brush, bg: 'from-rose-100 to-orange-100 text-rose-700' },
  business: { Icon: Briefcase, bg: 'from-slate-100 to-sky-100 text-sky-800' },
  coding: { Icon: Code2, bg: 'from-brand-100 to-violet-100 text-brand-700' },
  cooking: { Icon: ChefHat, bg: 'from-amber-100 to-orange-100 text-amber-800' },
  languages: { Icon: Languages, bg: 'from-teal-100 to-emerald-100 text-teal-800' },
  mathematics: { Icon: Calculator, bg: 'from-indigo-100 to-sky-100 text-indigo-700' },
  music: { Icon: Music, bg: 'from-fuchsia-100 to-pink-100 text-fuchsia-700' },
  science: { Icon: FlaskConical, bg: 'from-cyan-100 to-sky-100 text-cyan-800' },
  sports: { Icon: Dumbbell, bg: 'from-lime-100 to-emerald-100 text-emerald-800' },
  wellbeing: { Icon: HeartPulse, bg: 'from-pink-100 to-rose-100 text-pink-700' },
  writing: { Icon: PenLine, bg: 'from-stone-100 to-amber-100 text-stone-700' },
  social: { Icon: PartyPopper, bg: 'from-violet-100 to-rose-100 text-violet-700' },
  sport: { Icon: Trophy, bg: 'from-emerald-100 to-lime-100 text-emerald-800' },
};
const FALLBACK = { Icon: GraduationCap, bg: 'from-brand-50 to-slate-100 text-brand-700' };

/** The course's cover image, or a calm category-coloured placeholder without one. */
export function CourseCover({
  src,
  category,
  className = '',
  iconClass = 'h-10 w-10',
}: {
  src: string | null;
  category: string;
  className?: string;
  iconClass?: string;
}) {
  if (src) return <img src={src} alt="" loading="lazy" className={`bg-slate-100 object-cover ${className}`} />;
  const { Icon, bg } = LOOKS[category] ?? FALLBACK;
  return (
    <div className={`flex items-center justify-center bg-gradient-to-br ${bg} ${className}`} aria-hidden="true">
      <Icon className={`${iconClass} opacity-80`} strokeWidth={1.5} />
    </div>
  );
}
