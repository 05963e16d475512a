import { queryOptions } from '@tanstack/react-query';
import type { DropRefundPreview } from '@shared/payments-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET .../drop-refund: what dropping a session would refund now (the code the drop runs). */
export const dropRefundQuery = (courseId: string, sessionId: string) =>
  queryOptions({
    queryKey: queryKeys.dropRefund(courseId, sessionId),
    queryFn: () => api<DropRefundPreview>(`/api/courses/${courseId}/sessions/${sessionId}/drop-refund`),
  });
