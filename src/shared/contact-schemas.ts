import { z } from 'zod';
import { str } from './input-schemas.js';
import { CONTACT_TOPIC_IDS } from './contact.js';

/** POST /api/contact: the contact form. */
export const contactInput = z.object({
  name: str({ error: 'Enter your name' }).trim().min(1, 'Enter your name').max(100, 'Your name is at most 100 characters'),
  email: str({ error: 'Enter your email address' })
    .trim()
    .max(254, 'Enter a valid email address')
    .refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Enter a valid email address'),
  topic: z.enum(CONTACT_TOPIC_IDS, { error: 'Choose a topic' }),
  message: str({ error: 'Write your message' })
    .trim()
    .min(10, 'Your message needs at least 10 characters')
    .max(5_000, 'Your message is at most 5000 characters'),
  /** The signed time the form was loaded (GET /api/contact/form). */
  formToken: str({ error: 'Reload the page and try again' }).max(200, 'Reload the page and try again'),
  /** Honeypot: hidden from people; a bot fills it. */
  website: str().max(500).optional(),
});
export type ContactInput = z.input<typeof contactInput>;

export const contactForm = z.object({ formToken: z.string() });
export const contactSent = z.object({ ok: z.literal(true) });

/** GET /api/admin/contact-messages: the newest messages first. */
export const contactMessageList = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      topic: z.string(),
      message: z.string(),
      userId: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
});
export type ContactMessageList = z.infer<typeof contactMessageList>;
export const contactMessageQuery = z.object({
  page: z.coerce
    .number({ error: 'Page must be a number' })
    .int('Page must be a whole number')
    .min(1, 'Page starts at 1')
    .max(10_000)
    .default(1),
});
