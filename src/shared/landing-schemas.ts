import { z } from 'zod';
import { courseCard } from './courses-schemas.js';

/** A club on the landing page: a public club, the most members first (clubs/featured-clubs.ts). */
export const landingClub = z.object({
  id: z.string(),
  name: z.string(),
  summary: z.string(),
  category: z.string(),
  coverImage: z.string().nullable(),
  memberCount: z.number(),
});

/** GET /api/landing: public figures and featured courses and clubs, from the data. */
export const landingResult = z.object({
  figures: z.object({ courses: z.number(), educators: z.number(), cities: z.number() }),
  featuredCourses: z.array(courseCard),
  featuredClubs: z.array(landingClub),
});
export type LandingResult = z.infer<typeof landingResult>;
export type LandingClub = z.infer<typeof landingClub>;
