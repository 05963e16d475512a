import { CATEGORIES } from './courses.js';

/** Club vocabulary shared by the server and the web app (no runtime dependencies). */

/** The course categories, plus two that suit clubs. */
export const CLUB_CATEGORIES = [...CATEGORIES, { id: 'social', label: 'Social' }, { id: 'sport', label: 'Sport' }] as const;
export type ClubCategoryId = (typeof CLUB_CATEGORIES)[number]['id'];
export const CLUB_CATEGORY_IDS = CLUB_CATEGORIES.map((c) => c.id) as [ClubCategoryId, ...ClubCategoryId[]];
export const clubCategoryLabel = (id: string) => CLUB_CATEGORIES.find((c) => c.id === id)?.label ?? id;

export const CLUB_VISIBILITIES = ['public', 'approval'] as const;
export const CLUB_ROLES = ['owner', 'organiser', 'member'] as const;
export const MEMBERSHIP_STATES = ['active', 'pending', 'removed', 'banned'] as const;
export const EVENT_STATUSES = ['scheduled', 'cancelled'] as const;
export const RSVP_STATUSES = ['going', 'waitlisted', 'not_going'] as const;
export const CLUB_SORTS = ['relevance', 'members', 'next_event'] as const;
export const MEMBER_ACTIONS = ['approve', 'decline', 'promote', 'demote', 'remove', 'ban', 'transfer'] as const;

/** A repeat makes at most this many events (about two years of weekly events). */
export const MAX_REPEATS = 104;
export const CLUB_PAGE_SIZE = 12;
