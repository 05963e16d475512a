import type { EmailMessage } from './mailer.js';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One branded layout for every email, with a plain-text part that carries the same link. */
function layout(opts: { to: string; subject: string; greeting: string; body: string; action: string; url: string; footer: string }): EmailMessage {
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

export function waitlistPromotionEmail(to: string, firstName: string, courseTitle: string, url: string): EmailMessage {
  return layout({
    to,
    subject: `A seat opened up: you are enrolled in ${courseTitle}`,
    greeting: `Hi ${firstName || 'there'},`,
    body: `Good news: a seat opened up in "${courseTitle}" and it is yours. You have moved from the waitlist to enrolled.`,
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
    footer: 'Paid enrolments are refunded in full when a session is cancelled.',
  });
}
