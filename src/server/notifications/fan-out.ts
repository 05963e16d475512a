import type { NotificationType } from '../../shared/notifications-schemas.js';
import { formatClassTime } from '../../shared/time.js';
import type { AppServices } from '../app-services.js';
import { activeMemberIdsOf, clubNameOf as nameOfClub, firstEventOf, type ClubEventRow } from '../clubs/club-records.js';
import type { Tx } from '../db/transaction.js';
import { jobProgress } from '../jobs/queue.js';
import { JOBS, notify, type Notified } from './notify.js';
import type { NotificationData } from './render.js';

/**
 * Notifications to many people (every member of a big club) are a background job, never
 * the request's work: the announcing transaction stores one keyed job, and the job notifies
 * in batches after the commit, each batch in its own transaction with the job's cursor
 * (payload.after), so a job delivered again (a process that died mid-way) goes on where the
 * last committed batch stopped and nobody is told twice (docs/decisions/0025).
 */

export type Recipient = [userId: string, type: NotificationType, data: NotificationData];

/** Notifies each recipient in the transaction; answers the follow-up that pushes and emails after the commit. */
export async function send(app: AppServices, tx: Tx, recipients: Recipient[]) {
  const done: Notified[] = [];
  for (const [userId, type, data] of recipients) done.push(await notify(app, userId, type, data, { conn: tx }));
  return async () => {
    for (const n of done) await n.afterCommit();
  };
}

/** People told per batch transaction. */
export const FAN_OUT_BATCH = 100;

type DeletedEvent = { eventId: string; title: string; startsAt: string; endsAt: string; timeZone: string; attendeeIds: string[] };

/** What a fan-out job tells, and how far it got (`after`: the last member told, or how many attendees). */
export type FanOut =
  | { key: string; source: 'club-new-event'; clubId: string; eventIds: string[]; createdBy: string; after: string | null }
  | { key: string; source: 'club-deleted'; clubId: string; name: string; cancelledEvents: DeletedEvent[]; after: number | null }
  | { key: string; source: 'classroom-post'; recipientIds: string[]; data: NotificationData; after: number | null };

type FanOutSpec = FanOut extends infer F ? (F extends FanOut ? Omit<F, 'key' | 'after'> : never) : never;

/**
 * Stores the fan-out job in the announcing transaction (it exists exactly when the change
 * committed; its key makes a second schedule of the same change a no-op), and answers the
 * follow-up that starts it in the background once committed.
 */
export async function scheduleFanOut(app: AppServices, tx: Tx, key: string, spec: FanOutSpec) {
  await app.jobs.schedule(JOBS.fanOut, { ...spec, key, after: null }, { key, conn: tx });
  return async () => app.jobs.runSoon([key]);
}

/**
 * The job: one batch per transaction until everyone is told. The cursor is read from the job
 * row under its lock and moved in the batch's transaction, so deliveries running at once take
 * turns and never tell anyone twice; a job row gone means the work is done.
 */
export async function runFanOut(app: AppServices, job: FanOut) {
  for (;;) {
    const step = await app.database.db.transaction(async (tx) => {
      const row = await jobProgress.read<string | number>(tx, job.key, 'after');
      if (!row) return { done: true as const };
      const batch = await nextBatch(tx, job, row.value ?? null);
      if (!batch.recipients.length) return { done: true as const };
      const followUp = await send(app, tx, batch.recipients);
      await jobProgress.write(tx, job.key, 'after', batch.next);
      return { done: batch.recipients.length < FAN_OUT_BATCH, followUp };
    });
    if ('followUp' in step && step.followUp) await step.followUp();
    if (step.done) return;
  }
}

async function nextBatch(tx: Tx, job: FanOut, after: string | number | null): Promise<{ recipients: Recipient[]; next: string | number }> {
  if (job.source === 'classroom-post') {
    // A classroom's members, named by the classroom when it posted (ADR 0072).
    const from = typeof after === 'number' ? after : 0;
    const recipients = job.recipientIds.slice(from, from + FAN_OUT_BATCH).map((id): Recipient => [id, 'classroom_post', job.data]);
    return { recipients, next: from + recipients.length };
  }
  if (job.source === 'club-deleted') {
    const all: Recipient[] = [];
    for (const ev of job.cancelledEvents) {
      const data = {
        clubId: job.clubId,
        clubName: job.name,
        eventId: ev.eventId,
        title: ev.title,
        when: formatClassTime(ev.startsAt, ev.endsAt, ev.timeZone),
        // The instants and the event's zone: each reader reads the time in their own zone (render.ts).
        startsAt: ev.startsAt,
        endsAt: ev.endsAt,
        timeZone: ev.timeZone,
        change: 'club-deleted',
      };
      for (const id of ev.attendeeIds) all.push([id, 'club_event_changed', data]);
    }
    const from = typeof after === 'number' ? after : 0;
    const recipients = all.slice(from, from + FAN_OUT_BATCH);
    return { recipients, next: from + recipients.length };
  }
  // A repeat is one notification (its first occurrence, and how many there are), never one per occurrence.
  const first = await firstEventOf(tx, job.clubId, job.eventIds);
  if (!first) return { recipients: [], next: after ?? '' };
  const members = await activeMemberIdsOf(tx, job.clubId, {
    except: job.createdBy,
    after: typeof after === 'string' ? after : null,
    limit: FAN_OUT_BATCH,
  });
  const data = { ...(await eventData(tx, first)), occurrences: job.eventIds.length };
  return { recipients: members.map((id) => [id, 'club_new_event', data]), next: members.at(-1) ?? after ?? '' };
}

/** What a club event's notifications keep: ids, title, club name, the time in the event's zone and its instants. */
export async function eventData(tx: Tx, ev: ClubEventRow) {
  return {
    clubId: ev.clubId,
    clubName: await clubNameOf(tx, ev.clubId),
    eventId: ev.id,
    title: ev.title,
    when: formatClassTime(ev.startsAt.toISOString(), ev.endsAt.toISOString(), ev.timeZone),
    // The instants and the event's zone: each reader reads the time in their own zone (render.ts).
    startsAt: ev.startsAt.toISOString(),
    endsAt: ev.endsAt.toISOString(),
    timeZone: ev.timeZone,
  };
}

export async function clubNameOf(tx: Tx, clubId: string) {
  return (await nameOfClub(tx, clubId)) ?? 'your club';
}
