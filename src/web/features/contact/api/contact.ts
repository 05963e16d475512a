import { queryOptions } from '@tanstack/react-query';
import type { ContactInput } from '@shared/contact-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/contact/form: the signed time this form was loaded (a new one per visit). */
export const contactFormQuery = queryOptions({
  queryKey: queryKeys.contactForm,
  queryFn: () => api<{ formToken: string }>('/api/contact/form'),
  staleTime: Infinity,
  gcTime: 0,
});

/** POST /api/contact */
export const sendContactMessage = (body: ContactInput) => api<{ ok: true }>('/api/contact', { method: 'POST', body });
