import { api } from '@web/lib/api';

/** The private calendar feed URL (`rotate` makes a new one), and the one-off .ics download. */
export const calendarFeedUrl = (rotate = false) => api<{ url: string }>('/api/calendar/feed', { method: 'POST', body: { rotate } });
export const calendarDownloadUrl = '/api/calendar.ics';
