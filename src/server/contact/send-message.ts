import { CONTACT_LIMIT_PER_EMAIL, CONTACT_LIMIT_PER_IP, CONTACT_MESSAGES, CONTACT_TOPICS } from '../../shared/contact.js';
import type { ContactInput } from '../../shared/contact-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { createAttemptCounter } from '../accounts/attempts.js';
import type { AppServices } from '../app-services.js';
import { contactMessage } from '../db/schema/contact.js';
import { layout } from '../email/templates.js';
import { checkContactFormToken, useContactFormToken } from './form-token.js';

const HOUR = 3600;

/**
 * POST /api/contact: a message from the contact form, signed in or not. Against bots: a
 * honeypot field (filled: answered as sent, nothing kept), a minimum fill time (the
 * form's signed load time) and one message per form (its token is single-use). Counted per
 * client address and per sender email in the database (docs/decisions/0003) before anything
 * is stored. Stored, then emailed to the team (CONTACT_TO) with a confirmation to the
 * sender, whose text is fixed: the address typed may be anyone's, so the confirmation
 * carries nothing the sender typed (docs/decisions/0053).
 */
export async function sendContactMessage(
  app: AppServices,
  viewer: Viewer | null,
  input: ContactInput & { ip: string },
): Promise<{ stored: boolean }> {
  const issuedAt = checkContactFormToken(app.config.authSecret, input.formToken);
  const attempts = createAttemptCounter(app.database.db);
  const giveTokenBack = await useContactFormToken(attempts, input.formToken, issuedAt);
  if (input.website && input.website.trim() !== '') {
    app.log.info({ ip: input.ip }, 'contact: honeypot filled, message dropped');
    return { stored: false };
  }
  const email = input.email.trim().toLowerCase();
  try {
    await attempts.take([`contact:ip:${input.ip}`], CONTACT_LIMIT_PER_IP, HOUR, CONTACT_MESSAGES.rateLimited);
    await attempts.take([`contact:email:${email}`], CONTACT_LIMIT_PER_EMAIL, HOUR, CONTACT_MESSAGES.rateLimited);
  } catch (err) {
    // Over a limit: the form was not used, and may be sent once the limit lifts.
    await giveTokenBack();
    throw err;
  }
  const [row] = await app.database.db
    .insert(contactMessage)
    .values({
      name: input.name.trim(),
      email: input.email.trim(),
      topic: input.topic,
      message: input.message.trim(),
      userId: viewer?.user.id ?? null,
      ip: input.ip,
    })
    .returning({ id: contactMessage.id });
  const topic = CONTACT_TOPICS.find((t) => t.id === input.topic)?.label ?? input.topic;
  const base = app.config.publicUrl;
  // Each email on its own: the message is kept either way, and the admin console lists it.
  for (const message of [
    layout({
      to: app.config.contactTo,
      subject: `Contact: ${topic} — from ${input.name.trim()}`,
      greeting: `${input.name.trim()} <${input.email.trim()}> wrote (${topic}):`,
      body: input.message.trim(),
      action: 'Open the contact messages',
      url: `${base}/admin?section=contact#${row.id}`,
      footer: `Reply to ${input.email.trim()} to answer.${viewer ? ` Sent while signed in as ${viewer.user.email}.` : ''}`,
    }),
    layout({
      to: input.email.trim(),
      subject: 'We received your message',
      greeting: 'Hello,',
      body: 'Thank you for writing to Agora. A person reads every message and we answer within one working day, by email to this address.',
      action: 'Visit Agora',
      url: base,
      footer:
        'You receive this email because this address was entered in the contact form on Agora. If you did not write to us, ignore it.',
    }),
  ]) {
    try {
      await app.mailer.send(message);
    } catch (err) {
      app.log.error({ err, to: message.to }, 'contact: could not send an email');
    }
  }
  return { stored: true };
}
