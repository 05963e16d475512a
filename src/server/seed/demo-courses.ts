import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { dateIn, wallTimeToUtc } from '../../shared/time.js';
import type { Viewer } from '../accounts/viewer.js';
import { user } from '../db/schema/accounts.js';
import { course } from '../db/schema/courses.js';
import { educator } from '../db/schema/educators.js';
import { createCourse, publishCourse } from '../courses/course-service.js';
import { addClassTimes, createCourseSession } from '../courses/course-session-service.js';
import { enrolLearner } from '../courses/seats.js';
import { DEMO_USERS } from './demo-users.js';

const DAY = 86_400_000;

/** What a demo course is made of: its fields, one session, a weekly class time. */
const DEMO_COURSES = [
  {
    fields: {
      title: 'Python for Curious Beginners',
      summary: 'Write your first real programs in six friendly evening classes: variables, loops, functions and a small game.',
      description:
        '## What you will learn\n\n- Reading and writing Python with confidence\n- Loops, functions and lists\n- A small text adventure you can show your friends\n\nNo experience needed: bring a laptop and curiosity.',
      category: 'coding',
      level: 'beginner',
      language: 'English',
      audience: 'Adults and teens 15+',
      format: 'online',
      city: null,
      address: null,
      priceCents: 12000,
      currency: 'usd',
      installments: 3,
      refundPolicy: 'moderate',
    },
    session: { startsInDays: 9, weeks: 6, hour: 18, minutes: 90, capacity: 12, timeZone: 'America/New_York' },
    meetingUrl: 'https://meet.agora.local/python-beginners',
  },
  {
    fields: {
      title: 'Mathematics of Everyday Life',
      summary: 'Percentages, interest, odds and estimates: the maths behind shopping, loans and the news, explained with stories.',
      description:
        'Four relaxed sessions for anyone who *left maths behind at school*.\n\n1. Percentages that lie\n2. Interest and loans\n3. Odds and risk\n4. Back-of-the-envelope estimates',
      category: 'mathematics',
      level: 'all',
      language: 'English',
      audience: null,
      format: 'online',
      city: null,
      address: null,
      priceCents: 0,
      currency: 'usd',
      installments: null,
      refundPolicy: 'flexible',
    },
    session: { startsInDays: 4, weeks: 4, hour: 12, minutes: 60, capacity: 20, timeZone: 'America/New_York' },
    meetingUrl: 'https://meet.agora.local/everyday-maths',
    enrol: ['ada@agora.local'],
  },
  {
    fields: {
      title: 'Build Your First Website',
      summary: 'A hands-on Saturday workshop series in New York: HTML, CSS and publishing a personal page by the last class.',
      description: 'Small groups, one laptop each, coffee included.\n\nBy the end you will have **your own page online**.',
      category: 'coding',
      level: 'beginner',
      language: 'English',
      audience: 'Adults',
      format: 'in_person',
      city: 'New York',
      address: '120 Broadway, New York',
      priceCents: 6000,
      currency: 'usd',
      installments: null,
      refundPolicy: 'flexible',
    },
    session: { startsInDays: 13, weeks: 3, hour: 10, minutes: 120, capacity: 8, timeZone: 'America/New_York' },
    location: '120 Broadway, 5th floor',
  },
] as const;

/**
 * Demo courses for a newcomer to browse on first start (after the server listens: paid
 * courses get their payment product from the sandbox when published). Grace teaches them; Ada is enrolled
 * in the free one, so her dashboard shows upcoming classes. Only when Grace has no course.
 */
export async function seedDemoCourses(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const grace = DEMO_USERS.find((u) => u.educator)!;
  const [row] = await db
    .select({ u: user, e: educator })
    .from(user)
    .innerJoin(educator, eq(educator.userId, user.id))
    .where(eq(user.email, grace.email))
    .limit(1);
  if (!row) return;
  const [existing] = await db.select({ id: course.id }).from(course).where(eq(course.educatorId, row.u.id)).limit(1);
  if (existing) return;
  const viewer: Viewer = {
    signInSessionId: 'demo-seed',
    signInSessionUpdatedAt: new Date(),
    user: {
      id: row.u.id,
      email: row.u.email,
      firstName: row.u.firstName,
      lastName: row.u.lastName,
      city: row.u.city,
      stripeCustomerId: row.u.stripeCustomerId,
      image: row.u.image,
      verified: true,
      createdAt: row.u.createdAt,
      lastSignInAt: null,
    },
    educator: { bio: row.e.bio, profileImage: row.e.profileImage, stripeConnectAccountId: row.e.stripeConnectAccountId },
  };
  for (const demo of DEMO_COURSES) {
    const courseId = await createCourse(app, viewer, { ...demo.fields, installments: demo.fields.installments ?? null });
    const s = demo.session;
    const first = new Date(Date.now() + s.startsInDays * DAY);
    const day = dateIn(first, s.timeZone);
    const [y, m, d] = day.split('-').map(Number);
    const startsAt = wallTimeToUtc({ year: y, month: m, day: d, hour: s.hour, minute: 0 }, s.timeZone);
    const endsAt = new Date(startsAt.getTime() + s.minutes * 60_000);
    const sessionId = await createCourseSession(app, viewer, courseId, {
      startsOn: day,
      endsOn: dateIn(new Date(first.getTime() + (s.weeks - 1) * 7 * DAY), s.timeZone),
      capacity: s.capacity,
      minToRun: 1,
      timeZone: s.timeZone,
    });
    await addClassTimes(app, viewer, courseId, sessionId, {
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
      repeatWeeks: s.weeks,
      meetingUrl: 'meetingUrl' in demo ? demo.meetingUrl : null,
      location: 'location' in demo ? demo.location : null,
    });
    // Payments (subscribed to courses' events) creates a paid course's product on publish.
    await publishCourse(app, viewer, courseId);
    for (const email of 'enrol' in demo ? demo.enrol : []) {
      const [learner] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
      if (learner) await db.transaction((tx) => enrolLearner(tx, { sessionId, learnerId: learner.id }));
    }
  }
  app.log.info(`demo courses created: ${DEMO_COURSES.map((c) => c.fields.title).join(', ')}`);
}
