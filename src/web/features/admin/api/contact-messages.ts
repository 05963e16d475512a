import { queryOptions } from '@tanstack/react-query';
import type { ContactMessageList } from '@shared/contact-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Messages sent with the contact form, a page at a time (/api/admin/contact-messages). */
export const contactMessagesQuery = (page: number) =>
  queryOptions({
    queryKey: queryKeys.adminContactMessages(page),
    queryFn: () => api<ContactMessageList>(`/api/admin/contact-messages?page=${page}`),
  });
