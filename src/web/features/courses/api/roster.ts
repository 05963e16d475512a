import { queryOptions } from '@tanstack/react-query';
import type { rosterResult } from '@shared/courses-schemas';
import type { z } from 'zod';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/courses/:id/roster: every enrolment of a course (its educator only). */
export const getRoster = (courseId: string) => api<z.infer<typeof rosterResult>>(`/api/courses/${courseId}/roster`);
export const rosterQuery = (courseId: string) => queryOptions({ queryKey: queryKeys.roster(courseId), queryFn: () => getRoster(courseId) });
/** The same roster as a CSV download. */
export const rosterCsvUrl = (courseId: string) => `/api/courses/${courseId}/roster.csv`;
