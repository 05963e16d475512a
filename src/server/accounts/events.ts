import { DomainEvents } from '../events/domain-events.js';

/**
 * What accounts announce (docs/decisions/0007-domain-events.md). Domains above accounts
 * subscribe at start-up (courses keeps its copy of an educator's name); accounts never
 * imports them.
 */
export type AccountEventMap = {
  /** A user's first or last name changed (inside the transaction that changed it). */
  'user.renamed': { event: { userId: string; name: string } };
};

export type AccountEvents = DomainEvents<AccountEventMap>;

export function createAccountEvents(log: { error(obj: object, msg: string): void }): AccountEvents {
  return new DomainEvents<AccountEventMap>(log);
}
