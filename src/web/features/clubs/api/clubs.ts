import { queryOptions } from '@tanstack/react-query';
import type {
  ClubInput,
  ClubSearchQuery,
  ClubSearchResult,
  ClubsHome,
  ClubView,
  EventInput,
  EventUpdate,
  EventView,
  MembersResult,
} from '@shared/clubs-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** The clubs API (/api/clubs/...): fetchers, one queryOptions per query. */
export const getClub = (id: string) => api<ClubView>(`/api/clubs/${id}`);
export const clubQuery = (id: string) => queryOptions({ queryKey: queryKeys.club(id), queryFn: () => getClub(id) });

export const clubMembersQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.clubMembers(id), queryFn: () => api<MembersResult>(`/api/clubs/${id}/members`) });

export const clubEventQuery = (clubId: string, eventId: string) =>
  queryOptions({ queryKey: queryKeys.clubEvent(clubId, eventId), queryFn: () => api<EventView>(`/api/clubs/${clubId}/events/${eventId}`) });

export function searchClubs(q: ClubSearchQuery) {
  const params = new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  return api<ClubSearchResult>(`/api/clubs/search?${params}`);
}
export const searchClubsQuery = (q: ClubSearchQuery) =>
  queryOptions({ queryKey: queryKeys.clubSearch(q), queryFn: () => searchClubs(q), placeholderData: (prev) => prev });

export const myClubsQuery = queryOptions({ queryKey: queryKeys.myClubs, queryFn: () => api<ClubsHome>('/api/clubs/mine') });
export const exploreClubsQuery = queryOptions({
  queryKey: queryKeys.exploreClubs,
  queryFn: () => api<ClubsHome>('/api/clubs/explore'),
  staleTime: 60_000,
});

export const createClub = (body: ClubInput) => api<{ id: string }>('/api/clubs', { method: 'POST', body });
export const updateClub = (id: string, body: ClubInput) => api<{ message: string }>(`/api/clubs/${id}`, { method: 'PUT', body });
export const deleteClub = (id: string, confirmName: string) =>
  api<{ message: string }>(`/api/clubs/${id}/delete`, { method: 'POST', body: { confirmName } });
export const clubCoverUrl = (id: string) => `/api/clubs/${id}/cover`;
export const joinClub = (id: string, answer?: string) =>
  api<{ state: 'active' | 'pending'; message: string }>(`/api/clubs/${id}/join`, { method: 'POST', body: answer ? { answer } : {} });
export const leaveClub = (id: string) => api<{ message: string }>(`/api/clubs/${id}/leave`, { method: 'POST' });
export const memberAction = (clubId: string, userId: string, action: string) =>
  api<{ message: string }>(`/api/clubs/${clubId}/members/${userId}`, { method: 'POST', body: { action } });

export const createEvents = (clubId: string, body: EventInput) =>
  api<{ ids: string[] }>(`/api/clubs/${clubId}/events`, { method: 'POST', body });
export const updateEvent = (clubId: string, eventId: string, body: EventUpdate) =>
  api<{ message: string }>(`/api/clubs/${clubId}/events/${eventId}`, { method: 'PUT', body });
export const cancelEvent = (clubId: string, eventId: string) =>
  api<{ message: string }>(`/api/clubs/${clubId}/events/${eventId}/cancel`, { method: 'POST' });
export const rsvp = (clubId: string, eventId: string, answer: 'going' | 'not_going') =>
  api<{ status: string; waitlistPosition: number | null; message: string }>(`/api/clubs/${clubId}/events/${eventId}/rsvp`, {
    method: 'PUT',
    body: { answer },
  });
export const eventIcsUrl = (clubId: string, eventId: string) => `/api/clubs/${clubId}/events/${eventId}/event.ics`;
export const attendeesCsvUrl = (clubId: string, eventId: string) => `/api/clubs/${clubId}/events/${eventId}/attendees.csv`;
