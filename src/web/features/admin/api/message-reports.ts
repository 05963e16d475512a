import { queryOptions } from '@tanstack/react-query';
import type { ClassroomReports, MessageReports } from '@shared/admin-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Mailbox messages members reported (/api/admin/message-reports). */
export const messageReportsQuery = queryOptions({
  queryKey: queryKeys.adminMessageReports,
  queryFn: () => api<MessageReports>('/api/admin/message-reports'),
});

/** Classroom posts members reported (/api/admin/classroom-reports). */
export const classroomReportsQuery = queryOptions({
  queryKey: queryKeys.adminClassroomReports,
  queryFn: () => api<ClassroomReports>('/api/admin/classroom-reports'),
});
