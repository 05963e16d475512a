import { z } from 'zod';
import { str } from './input-schemas.js';

const link = str()
  .trim()
  .max(300)
  .refine((v) => /^https?:\/\/\S+$/.test(v), 'Links must start with https://');

/** Step 1 of /educator/onboard, and /educator/{id}/edit. */
export const educatorInput = z.object({
  headline: str({ error: 'Headline is required' }).trim().min(3, 'Headline is required').max(120, 'Headline is at most 120 characters'),
  bio: str({ error: 'Bio is required' })
    .trim()
    .min(20, 'Tell learners about yourself in at least 20 characters')
    .max(4000, 'Bio is at most 4000 characters'),
  subjects: z.array(str().trim().min(1).max(40)).max(10, 'At most 10 subjects').default([]),
  links: z.array(link).max(5, 'At most 5 links').default([]),
});
export type EducatorInput = z.input<typeof educatorInput>;

export const educatorProfile = z.object({
  userId: z.string(),
  name: z.string(),
  headline: z.string().nullable(),
  bio: z.string().nullable(),
  subjects: z.array(z.string()),
  links: z.array(z.string()),
  profileImage: z.string(),
  city: z.string().nullable(),
  ratingAvg: z.number(),
  ratingCount: z.number(),
  isMe: z.boolean(),
  payoutsReady: z.boolean(),
  courses: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      summary: z.string(),
      status: z.string(),
      priceCents: z.number(),
      currency: z.string(),
      ratingAvg: z.number(),
      ratingCount: z.number(),
      nextStartOn: z.string().nullable(),
      coverImage: z.string().nullable(),
    }),
  ),
});
export type EducatorProfile = z.infer<typeof educatorProfile>;
