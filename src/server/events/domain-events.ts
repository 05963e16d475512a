import type { Db } from '../db/client.js';
import type { Tx } from '../db/transaction.js';

/**
 * Domain events: a domain announces what happened (a learner dropped, a course session
 * was cancelled) and other domains subscribe at start-up, so the announcing domain never
 * imports them (docs/decisions/0007-domain-events.md).
 *
 * Two kinds of listener:
 * - in-transaction: runs inside the announcing transaction, there and then. What must
 *   commit together with the change goes here (a refund owed is written in the drop's
 *   transaction); a listener that throws rolls the whole change back. It may answer a
 *   follow-up, run once the transaction has committed (carrying out what it planned).
 * - after-commit: runs once the transaction has committed, for side effects (emails,
 *   realtime pushes). A failure is logged; the change stays committed.
 *
 * Several app processes share one PostgreSQL: the registry is code wiring (the same in
 * every process), and nothing an event causes lives only in memory. An effect that must
 * survive a crash between the commit and its follow-up is written by an in-transaction
 * listener as a row that a worker drains (refund_due and its retry timer).
 *
 * An event map names each event's payload and, optionally, its reply: what a listener
 * tells the announcer's caller (the drop's answer says what was refunded).
 */
export type EventMap = Record<string, { event: object; reply?: unknown }>;

type Reply<M extends EventMap, K extends keyof M> = M[K] extends { reply: infer R } ? R : never;
type FollowUp<R> = () => Promise<R | void>;
type InTransactionListener<M extends EventMap, K extends keyof M> = (tx: Tx, event: M[K]['event']) => Promise<FollowUp<Reply<M, K>> | void>;
type AfterCommitListener<M extends EventMap, K extends keyof M> = (event: M[K]['event']) => Promise<Reply<M, K> | void>;

/** Announces an event inside the transaction: its in-transaction listeners run now. */
export type Announce<M extends EventMap> = <K extends keyof M & string>(name: K, event: M[K]['event']) => Promise<void>;

export interface Committed<M extends EventMap, T> {
  /** What the transaction's work answered. */
  value: T;
  /** The replies of the listeners of one event announced in the transaction, in order. */
  replies<K extends keyof M & string>(name: K): Reply<M, K>[];
}

interface Logger {
  error(obj: object, msg: string): void;
}

export class DomainEvents<M extends EventMap> {
  private readonly inTx = new Map<keyof M, InTransactionListener<M, keyof M>[]>();
  private readonly afterTx = new Map<keyof M, AfterCommitListener<M, keyof M>[]>();

  constructor(private readonly log: Logger) {}

  /** Subscribes to an event inside the announcing transaction (at start-up). */
  inTransaction<K extends keyof M & string>(name: K, listener: InTransactionListener<M, K>): void {
    this.inTx.set(name, [...(this.inTx.get(name) ?? []), listener as unknown as InTransactionListener<M, keyof M>]);
  }

  /** Subscribes to an event once its transaction has committed (at start-up). */
  afterCommit<K extends keyof M & string>(name: K, listener: AfterCommitListener<M, K>): void {
    this.afterTx.set(name, [...(this.afterTx.get(name) ?? []), listener as unknown as AfterCommitListener<M, keyof M>]);
  }

  /**
   * Announces an event about work already done outside an announcing transaction (a refund
   * carried out at the provider, a payment recorded): its in-transaction listeners run in a
   * transaction of their own (their writes commit together), then their follow-ups and the
   * after-commit listeners, as for `transaction`.
   */
  async announceCommitted<K extends keyof M & string>(db: Db, name: K, event: M[K]['event']): Promise<void> {
    // No in-transaction listener: no transaction to open (an empty BEGIN/COMMIT is two round trips).
    if (!this.inTx.get(name)?.length) await this.afterCommitOf(undefined, [{ name, event, followUps: [] }]);
    else await this.transaction(db, (_tx, announce) => announce(name, event));
  }

  /**
   * Runs `work` in one transaction of `db`. Each event it announces runs its
   * in-transaction listeners at once, inside; after the commit, the follow-ups they
   * answered, then the after-commit listeners, each event in the order announced.
   */
  async transaction<T>(db: Db, work: (tx: Tx, announce: Announce<M>) => Promise<T>): Promise<Committed<M, T>> {
    const announced: { name: keyof M & string; event: object; followUps: FollowUp<unknown>[] }[] = [];
    const value = await db.transaction(async (tx) => {
      const announce: Announce<M> = async (name, event) => {
        const followUps: FollowUp<unknown>[] = [];
        for (const listener of this.inTx.get(name) ?? []) {
          const followUp = await listener(tx, event);
          if (followUp) followUps.push(followUp);
        }
        announced.push({ name, event, followUps });
      };
      return work(tx, announce);
    });
    return this.afterCommitOf(value, announced);
  }

  /**
   * Announces this domain's events inside ANOTHER domain's transaction `tx` (an
   * in-transaction listener of that domain's event doing its own domain's work, e.g. clubs
   * erasing a user's memberships when accounts announce `user.erased`): the in-transaction
   * listeners run at once with `tx`; `afterCommit` runs the follow-ups and after-commit
   * listeners, for the caller to return as its follow-up (run once `tx` has committed).
   */
  async joinTransaction<T>(tx: Tx, work: (announce: Announce<M>) => Promise<T>): Promise<{ value: T; afterCommit: () => Promise<void> }> {
    const announced: { name: keyof M & string; event: object; followUps: FollowUp<unknown>[] }[] = [];
    const announce: Announce<M> = async (name, event) => {
      const followUps: FollowUp<unknown>[] = [];
      for (const listener of this.inTx.get(name) ?? []) {
        const followUp = await listener(tx, event);
        if (followUp) followUps.push(followUp);
      }
      announced.push({ name, event, followUps });
    };
    const value = await work(announce);
    return {
      value,
      afterCommit: async () => {
        await this.afterCommitOf(undefined, announced);
      },
    };
  }

  private async afterCommitOf<T>(
    value: T,
    announced: { name: keyof M & string; event: object; followUps: FollowUp<unknown>[] }[],
  ): Promise<Committed<M, T>> {
    const replies = new Map<string, unknown[]>();
    for (const { name, event, followUps } of announced) {
      const steps = [...followUps, ...(this.afterTx.get(name) ?? []).map((listener) => () => listener(event))];
      for (const step of steps) {
        try {
          const reply = await step();
          if (reply !== undefined) replies.set(name, [...(replies.get(name) ?? []), reply]);
        } catch (err) {
          this.log.error({ err, event: name }, 'a listener failed after the commit (the change stays committed)');
        }
      }
    }
    return { value, replies: (name) => (replies.get(name) ?? []) as never };
  }
}
