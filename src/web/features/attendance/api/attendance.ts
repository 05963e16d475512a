import { queryOptions } from '@tanstack/react-query';
import type { AttendanceMarkValue, CertificateLookup, MarkResult, MyAttendance, SessionAttendance } from '@shared/attendance-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET a session's attendance sheet (its educator only). */
export const sessionAttendanceQuery = (courseId: string, sessionId: string) =>
  queryOptions({
    queryKey: queryKeys.sessionAttendance(courseId, sessionId),
    queryFn: () => api<SessionAttendance>(`/api/courses/${courseId}/sessions/${sessionId}/attendance`),
  });

/** One tap: PUT the learner's mark at a class time (idempotent: the same tap twice is one record). */
export const putMark = (ids: { courseId: string; sessionId: string; classTimeId: string; learnerId: string }, mark: AttendanceMarkValue) =>
  api<MarkResult>(`/api/courses/${ids.courseId}/sessions/${ids.sessionId}/class-times/${ids.classTimeId}/attendance/${ids.learnerId}`, {
    method: 'PUT',
    body: { mark },
  });

/** The learner's own record and certificates. */
export const myAttendanceQuery = queryOptions({
  queryKey: queryKeys.myAttendance,
  queryFn: () => api<MyAttendance>('/api/attendance/mine'),
});

export const revokeCertificate = (code: string) => api<CertificateLookup>(`/api/certificates/${code}/revoke`, { method: 'POST' });

/** The PDF download (its learner only). */
export const certificatePdfUrl = (code: string) => `/api/certificates/${code}/pdf`;
/** The public verification answer (JSON, for anyone). */
export const certificateVerifyUrl = (code: string) => `/api/certificates/${code}`;
