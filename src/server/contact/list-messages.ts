import { desc, sql } from 'drizzle-orm';
import type { ContactMessageList } from '../../shared/contact-schemas.js';
import type { AppServices } from '../app-services.js';
import { contactMessage } from '../db/schema/contact.js';

const PAGE_SIZE = 50;

/** The contact messages, newest first (the caller checks the admin role: admin/ composes this). */
export async function listContactMessages(app: AppServices, query: { page: number }): Promise<ContactMessageList> {
  const db = app.database.db;
  const rows = await db
    .select({
      id: contactMessage.id,
      name: contactMessage.name,
      email: contactMessage.email,
      topic: contactMessage.topic,
      message: contactMessage.message,
      userId: contactMessage.userId,
      createdAt: contactMessage.createdAt,
    })
    .from(contactMessage)
    .orderBy(desc(contactMessage.createdAt), desc(contactMessage.id))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(contactMessage);
  return {
    messages: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    page: query.page,
    pageSize: PAGE_SIZE,
    total,
  };
}
