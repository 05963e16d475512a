import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  NotificationList,
  NotificationPreferences,
  NotificationPreferencesInput,
  NotificationView,
} from '@shared/notifications-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/notifications: a page of the viewer's notifications (newest first), all or unread only. */
export const notificationListQuery = (filter: 'all' | 'unread') =>
  infiniteQueryOptions({
    queryKey: queryKeys.notificationList(filter),
    queryFn: ({ pageParam, signal }) => {
      const q = new URLSearchParams();
      if (filter === 'unread') q.set('unread', 'true');
      if (pageParam) q.set('cursor', pageParam);
      const s = q.toString();
      return api<NotificationList>(`/api/notifications${s ? `?${s}` : ''}`, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** GET /api/notifications/:id: one of the viewer's notifications. */
export const notificationQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.notification(id),
    queryFn: ({ signal }) => api<NotificationView>(`/api/notifications/${id}`, { signal }),
    retry: false,
  });

export const markNotificationRead = (id: string) => api<NotificationView>(`/api/notifications/${id}/read`, { method: 'POST' });
export const markAllNotificationsRead = () => api<{ marked: number }>('/api/notifications/read-all', { method: 'POST' });

/** GET /api/notifications/preferences: every type with its channels. */
export const notificationPreferencesQuery = queryOptions({
  queryKey: queryKeys.notificationPreferences,
  queryFn: ({ signal }) => api<NotificationPreferences>('/api/notifications/preferences', { signal }),
});

export const saveNotificationPreferences = (preferences: NotificationPreferencesInput['preferences']) =>
  api<NotificationPreferences>('/api/notifications/preferences', { method: 'PUT', body: { preferences } });
