import { DomainEvents } from '../events/domain-events.js';

/**
 * What the classroom announces (docs/decisions/0007-domain-events.md), inside the transaction
 * of its change. Notifications (above) subscribe and tell people; the classroom never imports them.
 */
export type ClassroomEventMap = {
  /**
   * A new post (by the educator) or reply in a session's classroom: `recipientIds` are the
   * members to tell (every member but the author for a post; for a reply, the educator, or
   * when the educator replied, the learners who replied under that post).
   */
  'classroom.posted': {
    event: {
      kind: 'post' | 'reply';
      courseId: string;
      sessionId: string;
      postId: string;
      /** The new post's or reply's id. */
      itemId: string;
      courseTitle: string;
      authorName: string;
      preview: string;
      recipientIds: string[];
    };
  };
};

export type ClassroomEvents = DomainEvents<ClassroomEventMap>;

export function createClassroomEvents(log: { error(obj: object, msg: string): void }): ClassroomEvents {
  return new DomainEvents<ClassroomEventMap>(log);
}
