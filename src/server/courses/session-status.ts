import type { courseSession } from '../db/schema/courses.js';

type SessionRow = typeof courseSession.$inferSelect;

/** scheduled / full / running / completed / cancelled, from the stored state and today's date. */
export function sessionStatus(s: Pick<SessionRow, 'status' | 'startsOn' | 'endsOn' | 'capacity' | 'seatsTaken'>, today = new Date().toISOString().slice(0, 10)) {
  if (s.status === 'cancelled') return 'cancelled' as const;
  if (s.status === 'completed' || s.endsOn < today) return 'completed' as const;
  if (s.startsOn <= today) return 'running' as const;
  if (s.seatsTaken >= s.capacity) return 'full' as const;
  return 'scheduled' as const;
}
