import { eq } from 'drizzle-orm';
import { classroomRemoval, classroomReply, classroomReport } from '../db/schema/classroom.js';
import type { Tx } from '../db/transaction.js';

/**
 * A deleted account's part of classrooms, in the erasing transaction (ADR 0024; the user row
 * stays under a pseudonym, so nothing cascades): its replies, reports and removals. An
 * educator's posts go with their courses.
 */
export async function eraseFromClassroom(tx: Tx, e: { userId: string }) {
  await tx.delete(classroomReply).where(eq(classroomReply.authorId, e.userId));
  await tx.delete(classroomReport).where(eq(classroomReport.reporterId, e.userId));
  await tx.delete(classroomRemoval).where(eq(classroomRemoval.userId, e.userId));
}
