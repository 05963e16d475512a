import { DomainEvents } from '../events/domain-events.js';

/**
 * What accounts announce (docs/decisions/0007-domain-events.md). Domains above accounts
 * subscribe at start-up (courses keeps its copy of an educator's name); accounts never
 * imports them.
 */
export type AccountEventMap = {
  /** A user's first or last name changed (inside the transaction that changed it). */
  'user.renamed': { event: { userId: string; name: string } };
  /**
   * A user's account is being erased (deleted by its owner or an admin), inside the
   * erasing transaction: every domain holding the user's rows erases or anonymises them
   * there, so the account and everything personal go together or not at all
   * (docs/decisions/0024-erasure-reaches-every-domain.md). `email` is the address before erasure.
   */
  'user.erased': { event: { userId: string; email: string } };
  /**
   * An account holder is removing one of their learner profiles (ADR 0074), inside the
   * removing transaction with the profile row locked: a domain holding a live place of that
   * learner refuses by throwing (courses: drop its classes first), which rolls it back.
   */
  'learner-profile.removing': { event: { accountId: string; learnerProfileId: string; firstName: string } };
};

export type AccountEvents = DomainEvents<AccountEventMap>;

export function createAccountEvents(log: { error(obj: object, msg: string): void }): AccountEvents {
  return new DomainEvents<AccountEventMap>(log);
}
