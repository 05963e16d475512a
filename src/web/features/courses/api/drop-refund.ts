import { queryOptions } from '@tanstack/react-query';
import type { DropRefundPreview } from '@shared/payments-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/**
 * GET .../drop-refund: what dropping a session would refund now (the code the drop runs); with
 * `learner`, that learner's seat of a family purchase (its share, ADR 0074).
 */
export const dropRefundQuery = (courseId: string, sessionId: string, learner: string | null = null) =>
  queryOptions({
    queryKey: [...queryKeys.dropRefund(courseId, sessionId), learner ?? 'me'],
    queryFn: () =>
      api<DropRefundPreview>(
        `/api/courses/${courseId}/sessions/${sessionId}/drop-refund${learner ? `?learnerId=${encodeURIComponent(learner)}` : ''}`,
      ),
  });
