/** The contact form's vocabulary and rules, shared by the server and the web app. */
export const CONTACT_TOPICS = [
  { id: 'question', label: 'A question about Agora' },
  { id: 'problem', label: 'A problem with a course or payment' },
  { id: 'teaching', label: 'Teaching on Agora' },
  { id: 'feedback', label: 'Feedback or an idea' },
  { id: 'other', label: 'Something else' },
] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number]['id'];
export const CONTACT_TOPIC_IDS = CONTACT_TOPICS.map((t) => t.id) as [ContactTopic, ...ContactTopic[]];

/** A person needs at least this long to fill the form; faster is a bot. */
export const CONTACT_MIN_FILL_MS = 3_000;
/** A form older than this must be reloaded. */
export const CONTACT_FORM_MAX_AGE_MS = 24 * 3_600_000;
/** Messages per hour: per client address, and per sender email. */
export const CONTACT_LIMIT_PER_IP = 5;
export const CONTACT_LIMIT_PER_EMAIL = 3;

export const CONTACT_MESSAGES = {
  tooFast: 'That was very quick. Please check your message and send it again.',
  expired: 'This form has expired. Reload the page and send your message again.',
  used: 'This form was already sent. Reload the page to write another message.',
  rateLimited: 'You have sent several messages in a short time. We will answer those first.',
} as const;
