import {
  AlertTriangle,
  Bell,
  AlarmClock,
  CalendarClock,
  CalendarPlus,
  CheckCircle2,
  Crown,
  GraduationCap,
  MessageCircle,
  Receipt,
  RotateCcw,
  Star,
  Ticket,
  UserCheck,
  UserPlus,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { NotificationType } from '@shared/notifications-schemas';

const ICONS: Record<NotificationType, { icon: LucideIcon; tone: string }> = {
  new_message: { icon: MessageCircle, tone: 'bg-sky-100 text-sky-800' },
  enrolled: { icon: CheckCircle2, tone: 'bg-emerald-100 text-emerald-800' },
  waitlist_promoted: { icon: Ticket, tone: 'bg-emerald-100 text-emerald-800' },
  waitlist_offer: { icon: Ticket, tone: 'bg-amber-100 text-amber-800' },
  session_changed: { icon: CalendarClock, tone: 'bg-amber-100 text-amber-900' },
  payment_receipt: { icon: Receipt, tone: 'bg-brand-100 text-brand-800' },
  installment_failed: { icon: AlertTriangle, tone: 'bg-red-100 text-red-800' },
  refund_issued: { icon: RotateCcw, tone: 'bg-brand-100 text-brand-800' },
  learner_enrolled: { icon: UserPlus, tone: 'bg-violet-100 text-violet-800' },
  new_review: { icon: Star, tone: 'bg-amber-100 text-amber-900' },
  club_join_request: { icon: Users, tone: 'bg-violet-100 text-violet-800' },
  club_request_approved: { icon: UserCheck, tone: 'bg-emerald-100 text-emerald-800' },
  club_ownership: { icon: Crown, tone: 'bg-amber-100 text-amber-800' },
  club_new_event: { icon: CalendarPlus, tone: 'bg-sky-100 text-sky-800' },
  club_event_changed: { icon: CalendarClock, tone: 'bg-amber-100 text-amber-900' },
  club_waitlist_promoted: { icon: Ticket, tone: 'bg-emerald-100 text-emerald-800' },
  club_event_reminder: { icon: AlarmClock, tone: 'bg-brand-100 text-brand-800' },
  class_reminder: { icon: AlarmClock, tone: 'bg-emerald-100 text-emerald-800' },
  classroom_post: { icon: GraduationCap, tone: 'bg-sky-100 text-sky-800' },
};

/** The round icon of a notification's type. */
export function TypeIcon({ type, className = 'h-10 w-10' }: { type: NotificationType; className?: string }) {
  const { icon: Icon, tone } = ICONS[type] ?? { icon: Bell, tone: 'bg-slate-100 text-slate-700' };
  return (
    <span className={`inline-flex shrink-0 items-center justify-center rounded-full ${tone} ${className}`} aria-hidden="true">
      <Icon className="h-5 w-5" />
    </span>
  );
}
