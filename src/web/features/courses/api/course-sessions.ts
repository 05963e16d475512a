import type { ClassTimeInput, ClassTimeMove, DropResult, EnrolmentResult, SessionInput } from '@shared/courses-schemas';
import { api } from '@web/lib/api';

/** A course's sessions, their class times, and a learner's enrolment in one (enrol, drop). */
export const createSession = (courseId: string, body: SessionInput) =>
  api<{ id: string }>(`/api/courses/${courseId}/sessions`, { method: 'POST', body });
export const updateSession = (courseId: string, sessionId: string, body: { capacity?: number; status?: 'scheduled' | 'cancelled' }) =>
  api<{ message: string }>(`/api/courses/${courseId}/sessions/${sessionId}`, { method: 'PATCH', body });
export const addClassTimes = (courseId: string, sessionId: string, body: ClassTimeInput) =>
  api<{ ids: string[] }>(`/api/courses/${courseId}/sessions/${sessionId}/class-times`, { method: 'POST', body });
/** Moves a class time: its learners get a calendar update and their reminders follow. */
export const moveClassTime = (courseId: string, sessionId: string, classTimeId: string, body: ClassTimeMove) =>
  api<{ message: string }>(`/api/courses/${courseId}/sessions/${sessionId}/class-times/${classTimeId}`, { method: 'PATCH', body });
export const deleteClassTime = (courseId: string, sessionId: string, classTimeId: string) =>
  api<{ message: string }>(`/api/courses/${courseId}/sessions/${sessionId}/class-times/${classTimeId}`, { method: 'DELETE' });

/** Enrols the account holder, or these learners ("me" and/or learner profile ids), one seat each (ADR 0074). */
export const enrol = (courseId: string, sessionId: string, learnerIds?: string[]) =>
  api<EnrolmentResult>(`/api/courses/${courseId}/sessions/${sessionId}/enrol`, {
    method: 'POST',
    ...(learnerIds ? { body: { learnerIds } } : {}),
  });
/** Drops the holder's own seat, or one learner profile's (learnerId). */
export const drop = (courseId: string, sessionId: string, learnerId?: string | null) =>
  api<DropResult>(`/api/courses/${courseId}/sessions/${sessionId}/drop`, {
    method: 'POST',
    ...(learnerId ? { body: { learnerId } } : {}),
  });
/** Declines the seat offered from a paid session's waitlist: it goes to the next in line. */
export const declineOffer = (courseId: string, sessionId: string) =>
  api<{ message: string }>(`/api/courses/${courseId}/sessions/${sessionId}/offer/decline`, { method: 'POST' });
