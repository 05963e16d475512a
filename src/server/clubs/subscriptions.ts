import type { AppServices } from '../app-services.js';
import type { CalendarSources } from '../courses/calendar.js';
import { eraseFromClubs } from './erasure.js';
import { clubCalendarEntries } from './event-files.js';

/**
 * Everything clubs hear and add to others, wired once at start-up by composition
 * (src/server/composition/): what accounts announce, and the user's calendar (courses/calendar.ts).
 */
export function subscribeClubs(app: AppServices, { calendarSources }: { calendarSources: CalendarSources }) {
  // A deleted account leaves every club in the erasing transaction; what clubs announce there joins it (ADR 0024).
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromClubs(app, tx, e));
  // The events a user is going to, in their calendar beside their class times.
  calendarSources.add(clubCalendarEntries);
}
