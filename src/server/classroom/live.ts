import { CLASSROOM_CHANGED } from '../../shared/classroom-schemas.js';
import type { AppServices } from '../app-services.js';

/**
 * After the commit: every member's open classroom tabs hear that the classroom changed (ids
 * only; the tab re-reads through the API, which checks access again). One NOTIFY for all.
 */
export async function publishChanged(
  app: AppServices,
  memberIds: string[],
  change: { sessionId: string; postId: string; what: 'post' | 'edit' | 'delete' | 'reply' | 'pin' | 'hide' | 'access' },
) {
  if (!memberIds.length) return;
  await app.realtime.publishMany(memberIds.map((id) => [id, { type: CLASSROOM_CHANGED, ...change }]));
}
