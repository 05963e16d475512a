import type { Viewer } from '../accounts/viewer.js';
import type { user } from '../db/schema/accounts.js';

type UserRow = Pick<
  typeof user.$inferSelect,
  'id' | 'email' | 'firstName' | 'lastName' | 'city' | 'stripeCustomerId' | 'image' | 'createdAt'
>;

/** The viewer a demo seed acts as (the use cases take one; no sign-in session exists behind it). */
export function demoViewer(u: UserRow): Viewer {
  return {
    signInSessionId: 'demo-seed',
    signInSessionUpdatedAt: new Date(),
    user: {
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      city: u.city,
      timeZone: null,
      stripeCustomerId: u.stripeCustomerId,
      image: u.image,
      verified: true,
      createdAt: u.createdAt,
      lastSignInAt: null,
    },
    educator: null,
  } as Viewer;
}
