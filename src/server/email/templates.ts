import { CANCELLED_SESSION_REFUND, REFUND_ARRIVAL, refundPolicySentence, refundedSentence } from '../../shared/refund-terms.js';
import type { EmailMessage } from './mailer.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One branded layout for every email, with a plain-text part that carries the same link. */
export function layout(opts: {
  to: string;
  subject: string;
  greeting: string;
  body: string;
  action: string;
  url: string;
  footer: string;
}): EmailMessage {
  const html = `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#fff;border-radius:12px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:22px;font-weight:700;color:#4338ca;padding-bottom:16px">Agora</td></tr>
<tr><td style="font-size:16px;line-height:1.5"><p>${escape(opts.greeting)}</p><p>${escape(opts.body)}</p>
<p style="padding:16px 0"><a href="${escape(opts.url)}" style="background:#4338ca;color:#fff;text-decoration:none;padding:12px 20px;border-radius:8px;display:inline-block">${escape(opts.action)}</a></p>
<p style="font-size:13px;color:#52525b">Or paste this link into your browser:<br><span style="word-break:break-all">${escape(opts.url)}</span></p>
<p style="font-size:13px;color:#71717a">${escape(opts.footer)}</p></td></tr></table></td></tr></table></body></html>`;
  const text = `${opts.greeting}\n\n${opts.body}\n\n${opts.action}: ${opts.url}\n\n${opts.footer}\n\n— Agora`;
  return { to: opts.to, subject: opts.subject, text, html };
}

export function verificationEmail(to: string, firstName: string, url: string): EmailMessage {
  return layout({
    to,
    subject: 'Verify your email for Agora',
    greeting: `Hi ${firstName || 'there'},`,
    body: 'Welcome to Agora! Confirm your email address to start finding courses and clubs.',
    action: 'Verify email',
    url,
    footer: 'The link works for 24 hours. If you did not sign up for Agora, you can ignore this email.',
  });
}

export function passwordResetEmail(to: string, firstName: string, url: string): EmailMessage {
  return layout({
    to,
    subject: 'Reset your Agora password',
    greeting: `Hi ${firstName || 'there'},`,
    body: 'Someone (hopefully you) asked to reset the password of your Agora account. Choosing a new password signs you out everywhere else.',
    action: 'Choose a new password',
    url,
    footer: 'The link works for 1 hour. If you did not ask for this, ignore this email: your password stays the same.',
  });
}

/** `forLearner`: the first name of the account's learner the seat is for (a family account), or null for the holder. */
export function waitlistPromotionEmail(
  to: string,
  firstName: string,
  courseTitle: string,
  url: string,
  forLearner: string | null = null,
): EmailMessage {
  return layout({
    to,
    subject: forLearner
      ? `A seat opened up: ${forLearner} is enrolled in ${courseTitle}`
      : `A seat opened up: you are enrolled in ${courseTitle}`,
    greeting: `Hi ${firstName || 'there'},`,
    body: forLearner
      ? `Good news: a seat opened up in "${courseTitle}" and it is ${forLearner}'s. ${forLearner} has moved from the waitlist to enrolled.`
      : `Good news: a seat opened up in "${courseTitle}" and it is yours. You have moved from the waitlist to enrolled.`,
    action: 'See the course',
    url,
    footer: 'If you no longer want the seat, drop the session from the course page so the next learner gets it.',
  });
}

export function sessionCancelledEmail(to: string, firstName: string, courseTitle: string, url: string): EmailMessage {
  return layout({
    to,
    subject: `A session of ${courseTitle} was cancelled`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `The educator cancelled the session of "${courseTitle}" you were enrolled in (or waiting for). You are no longer enrolled in it; other sessions of the course may still have seats.`,
    action: 'See the course',
    url,
    footer: CANCELLED_SESSION_REFUND,
  });
}

/* Payments (issue 4). Amounts arrive formatted ("$49.00"). */

export function enrolledReceiptEmail(
  to: string,
  firstName: string,
  o: { courseTitle: string; amount: string; detail: string; receiptUrl: string | null; courseUrl: string; refundPolicy: string | null },
): EmailMessage {
  return layout({
    to,
    subject: `You're enrolled in ${o.courseTitle}`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `You're enrolled in "${o.courseTitle}". We received your payment of ${o.amount}${o.detail ? ` (${o.detail})` : ''}.${o.receiptUrl ? ` Your receipt: ${o.receiptUrl}` : ''}`,
    action: 'See the course',
    url: o.courseUrl,
    footer: `Your payment history and receipts are in Settings. If you drop the session: ${refundPolicySentence(o.refundPolicy)}`,
  });
}

export function installmentReceiptEmail(
  to: string,
  firstName: string,
  o: { title: string; amount: string; sequence: number; installments: number | null; receiptUrl: string | null; url: string },
): EmailMessage {
  const which = o.installments ? `installment ${o.sequence} of ${o.installments}` : `payment ${o.sequence}`;
  return layout({
    to,
    subject: `Receipt: ${o.title}, ${which}`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `We received ${o.amount} for "${o.title}" (${which}).${o.receiptUrl ? ` Your receipt: ${o.receiptUrl}` : ''}`,
    action: o.receiptUrl ? 'View the receipt' : 'See your payments',
    url: o.receiptUrl ?? o.url,
    footer: 'Your payment history and receipts are in Settings.',
  });
}

export function seatGoneRefundEmail(
  to: string,
  firstName: string,
  o: { courseTitle: string; amount: string; reason: string; courseUrl: string },
): EmailMessage {
  return layout({
    to,
    subject: `You have been refunded: ${o.courseTitle}`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `We could not give you a seat in "${o.courseTitle}": ${o.reason === 'This session is full' ? 'the last seat was taken while you were paying' : o.reason.charAt(0).toLowerCase() + o.reason.slice(1)}. You have been refunded ${o.amount} in full. ${REFUND_ARRIVAL}`,
    action: 'See other sessions',
    url: o.courseUrl,
    footer: 'Sorry about that. Other sessions of the course may still have seats.',
  });
}

export function installmentFailedEmail(
  to: string,
  firstName: string,
  o: { courseTitle: string; amount: string; url: string },
): EmailMessage {
  return layout({
    to,
    subject: `Your installment for ${o.courseTitle} failed`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `We could not collect your installment of ${o.amount} for "${o.courseTitle}". Your seat is kept for now; we will try your card again. If the payment keeps failing, the seat is released.`,
    action: 'Check your payments',
    url: o.url,
    footer: 'If your card changed, update it with your bank or contact us.',
  });
}

export function seatReleasedEmail(to: string, firstName: string, o: { courseTitle: string; courseUrl: string }): EmailMessage {
  return layout({
    to,
    subject: `Your seat in ${o.courseTitle} was released`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `We could not collect the installments for "${o.courseTitle}", so your seat was released and no further payments will be taken.`,
    action: 'See the course',
    url: o.courseUrl,
    footer: 'You can enrol again from the course page.',
  });
}

export function dropRefundEmail(
  to: string,
  firstName: string,
  o: { courseTitle: string; amount: string; courseUrl: string; installmentsStopped: boolean },
): EmailMessage {
  return layout({
    to,
    subject: `Refund for ${o.courseTitle}`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `You left "${o.courseTitle}". ${refundedSentence(o)}`,
    action: 'See the course',
    url: o.courseUrl,
    footer: 'Your payment history and receipts are in Settings.',
  });
}

/** A refund that could not be made at once (the provider failed) has now gone through. */
export function delayedRefundEmail(
  to: string,
  firstName: string,
  o: { courseTitle: string; amount: string; courseUrl: string },
): EmailMessage {
  return layout({
    to,
    subject: `Your refund for ${o.courseTitle} has gone through`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `Your refund of ${o.amount} for "${o.courseTitle}" was delayed by our payment provider; it has now been made. ${REFUND_ARRIVAL}`,
    action: 'See the course',
    url: o.courseUrl,
    footer: 'Your payment history and receipts are in Settings.',
  });
}

export function planActiveEmail(to: string, firstName: string, o: { planName: string; feePercent: number; url: string }): EmailMessage {
  return layout({
    to,
    subject: `Welcome to ${o.planName}`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `${o.planName} is active: the platform fee on your sales is now ${o.feePercent}%.`,
    action: 'Open your dashboard',
    url: o.url,
    footer: 'You can cancel at any time; the fee returns to the standard rate when the plan ends.',
  });
}

export function signInAttackEmail(to: string, firstName: string, url: string): EmailMessage {
  return layout({
    to,
    subject: 'Someone is trying to log in to your Agora account',
    greeting: `Hi ${firstName || 'there'},`,
    body: 'There were many failed attempts to log in to your Agora account, so logging in with its password is paused for 15 minutes. If that was you, or you need to get in now, reset your password: the link we email you lets you choose a new one and ends the pause.',
    action: 'Reset my password',
    url,
    footer: 'If it was not you, nothing has changed: your password stays the same. Choose a password you use nowhere else.',
  });
}

/* Notifications (issue 10). */

/** A notification email in the branded layout. */
export function noticeEmail(
  to: string,
  firstName: string,
  o: { subject: string; body: string; action: string; url: string; footer: string },
): EmailMessage {
  return layout({ to, greeting: `Hi ${firstName || 'there'},`, ...o });
}

/** The day's notifications in one email. */
export function digestEmail(
  to: string,
  firstName: string,
  o: { day: string; items: { title: string; body: string; url: string }[]; url: string },
): EmailMessage {
  const n = o.items.length;
  const subject = `Your Agora digest: ${n} update${n === 1 ? '' : 's'} on ${o.day}`;
  const list = o.items
    .map(
      (i) =>
        `<li style="padding:8px 0"><a href="${escape(i.url)}" style="color:#4338ca;font-weight:600">${escape(i.title)}</a><br>${escape(i.body)}</li>`,
    )
    .join('');
  const message = layout({
    to,
    subject,
    greeting: `Hi ${firstName || 'there'},`,
    body: `Here is what happened on ${o.day}:`,
    action: 'See your notifications',
    url: o.url,
    footer: 'You get this digest once a day for the notifications you chose to receive this way.',
  });
  return {
    ...message,
    html: message.html.replace('<p style="padding:16px 0">', `<ul style="padding-left:20px">${list}</ul><p style="padding:16px 0">`),
    text: message.text.replace(
      `\n\nSee your notifications:`,
      `\n\n${o.items.map((i) => `- ${i.title}: ${i.body}\n  ${i.url}`).join('\n')}\n\nSee your notifications:`,
    ),
  };
}

/**
 * Adds the one-click unsubscribe of a notification email (RFC 8058): the link in the text
 * and the HTML, and the List-Unsubscribe headers a mail client shows as "Unsubscribe".
 */
export function withUnsubscribe(message: EmailMessage, url: string, what: string): EmailMessage {
  const line = `Stop emails about ${what}: ${url}`;
  return {
    ...message,
    text: `${message.text}\n\n${line}`,
    html: message.html.replace(
      '</td></tr></table></td></tr></table></body>',
      `<p style="font-size:12px;color:#71717a"><a href="${escape(url)}" style="color:#71717a">Stop emails about ${escape(what)}</a> (one click, no sign-in needed).</p></td></tr></table></td></tr></table></body>`,
    ),
    headers: { ...message.headers, 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

export function emailChangeEmail(to: string, firstName: string, oldEmail: string, url: string): EmailMessage {
  return layout({
    to,
    subject: 'Confirm your new email for Agora',
    greeting: `Hi ${firstName || 'there'},`,
    body: `You asked to use this address for your Agora account instead of ${oldEmail}. Confirm it to make the change: until then, nothing changes.`,
    action: 'Confirm my new email',
    url,
    footer: 'The link works for 24 hours. If you did not ask for this, ignore this email.',
  });
}

export function emailChangedNoticeEmail(to: string, firstName: string, newEmail: string, url: string): EmailMessage {
  return layout({
    to,
    subject: 'Your Agora email address was changed',
    greeting: `Hi ${firstName || 'there'},`,
    body: `The email address of your Agora account is now ${newEmail}. Emails about your account go there from now on, and you log in with it.`,
    action: 'Not you? Reset your password',
    url,
    footer: 'If you did not make this change, reset your password and contact us at once.',
  });
}

export function accountDeletedEmail(to: string, firstName: string, url: string): EmailMessage {
  return layout({
    to,
    subject: 'Your Agora account was deleted',
    greeting: `Hi ${firstName || 'there'},`,
    body: 'Your Agora account has been deleted, as you asked: your profile, sign-ins and personal details are erased. Records of payments are kept, without your name, for as long as the law requires.',
    action: 'Visit Agora',
    url,
    footer: 'If you did not delete your account, contact us at once.',
  });
}

/** Family accounts (ADR 0074): an account holder invites one of their learners to an account of their own. */
export function learnerInviteEmail(to: string, learnerFirstName: string, holderName: string, url: string, days: number): EmailMessage {
  return layout({
    to,
    subject: `${holderName} invites you to your own Agora account`,
    greeting: `Hi ${learnerFirstName || 'there'},`,
    body: `${holderName} has been enrolling you in classes on Agora. Create your own account with this link: your classes and their history move to it, and you manage them yourself from then on.`,
    action: 'Create my account',
    url,
    footer: `The link works once, for ${days} days. If you were not expecting this, ignore this email.`,
  });
}
