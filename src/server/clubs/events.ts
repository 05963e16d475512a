import { DomainEvents } from '../events/domain-events.js';

/**
 * What clubs announce (docs/decisions/0007-domain-events.md). Notifications (above clubs)
 * subscribe at start-up and tell people; clubs never import them. Every event is announced
 * inside the transaction of its change, so an after-commit listener hears only what committed.
 */
export type ClubEventMap = {
  /** Someone asked to join an approval club: its organisers are told. */
  'club.join-requested': { event: { clubId: string; userId: string; organiserIds: string[] } };
  /** An organiser approved a request: the requester is told. */
  'club.request-approved': { event: { clubId: string; userId: string } };
  /** New events in a club (one, or every event of a repeat): its members are told. */
  'club-event.created': { event: { clubId: string; eventIds: string[]; createdBy: string } };
  /** An event's time, place or capacity changed: its attendees (going and waitlisted) are told. */
  'club-event.changed': { event: { clubId: string; eventId: string; attendeeIds: string[] } };
  /** An event was cancelled: its attendees are told. */
  'club-event.cancelled': { event: { clubId: string; eventId: string; attendeeIds: string[] } };
  /** Waitlisted members got a place (someone cancelled, capacity raised). */
  'rsvp.promoted': { event: { clubId: string; eventId: string; userIds: string[] } };
  /** A club was deleted: its upcoming events were cancelled (the rows are gone; what to tell is here). */
  'club.deleted': {
    event: {
      clubId: string;
      name: string;
      cancelledEvents: { eventId: string; title: string; startsAt: string; endsAt: string; timeZone: string; attendeeIds: string[] }[];
    };
  };
  /**
   * A club has a new owner: the owner handed it over (`transferred`), or closed their account
   * and it passed to its longest-standing organiser (`account-closed`). The new owner is told.
   */
  'club.owner-changed': { event: { clubId: string; ownerId: string; previousOwnerId: string; reason: 'transferred' | 'account-closed' } };
  /** A reminder is due for a member going to an event (a keyed job: once per event, member and time). */
  'event.reminder-due': { event: { clubId: string; eventId: string; userId: string; before: '24h' | '1h' } };
};

export type ClubEvents = DomainEvents<ClubEventMap>;

export function createClubEvents(log: { error(obj: object, msg: string): void }): ClubEvents {
  return new DomainEvents<ClubEventMap>(log);
}
