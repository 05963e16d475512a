import { queryOptions } from '@tanstack/react-query';
import type { CertificateRuleBody } from '@shared/attendance-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** The course's certificate of completion rule (attendance owns it; the course editor sets it). */
export const certificateRuleQuery = (courseId: string) =>
  queryOptions({
    queryKey: queryKeys.certificateRule(courseId),
    queryFn: () => api<CertificateRuleBody>(`/api/courses/${courseId}/certificate-rule`),
  });

export const putCertificateRule = (courseId: string, body: CertificateRuleBody) =>
  api<CertificateRuleBody>(`/api/courses/${courseId}/certificate-rule`, { method: 'PUT', body });
