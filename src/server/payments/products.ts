import type Stripe from 'stripe';
import { planById, type PlanId } from '../../shared/payments.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { ownedCourse } from '../courses/access.js';
import { courseProductIdOf, keepCourseProductId, type CourseRow } from '../courses/provider-product.js';
import { requireEducator } from '../educators/require-educator.js';
import { isMissing, provider, shortHash } from './provider-calls.js';

/** The provider product of a course, created (and stored) when missing. */
export async function ensureCourseProduct(
  app: AppServices,
  c: Pick<CourseRow, 'id' | 'title' | 'educatorId' | 'stripeProductId'>,
  name?: string,
): Promise<string> {
  if (c.stripeProductId) return c.stripeProductId;
  const db = app.database.db;
  const fresh = await courseProductIdOf(db, c.id);
  if (fresh) return fresh;
  const productName = name ?? c.title;
  const product = await app
    .stripe()
    .products.create(
      { name: productName, metadata: { course_id: c.id, educator_id: c.educatorId } },
      { idempotencyKey: `product-course-${c.id}-${shortHash(productName)}` },
    );
  return keepCourseProductId(db, c.id, product.id);
}

/** The fixed provider product of a platform plan (retrieve, or create with its fixed id). */
export function planProductId(planId: PlanId): string {
  return `agora_${planId.replace(/-/g, '_')}`;
}
export async function ensurePlanProduct(stripe: Stripe, planId: PlanId): Promise<string> {
  const plan = planById(planId)!;
  const id = planProductId(planId);
  try {
    return (await stripe.products.retrieve(id)).id;
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  const product = await stripe.products.create(
    { id, name: `Agora ${plan.name}`, metadata: { plan: plan.id } },
    { idempotencyKey: `product-plan-${id}` },
  );
  return product.id;
}

/**
 * POST /api/stripe/create-product: the provider product of one of the educator's courses
 * (stored on the course), or a free-standing product of theirs.
 */
export async function createProduct(app: AppServices, viewer: Viewer, input: { name: string; course?: string }) {
  requireEducator(viewer);
  const failure = { code: 'product_error', message: 'Error creating product' };
  if (input.course) {
    const c = await ownedCourse(app.database.db, input.course, viewer);
    const id = await provider(app.log, failure, 'products.create', () => ensureCourseProduct(app, c, input.name));
    return { id, name: input.name };
  }
  const product = await provider(app.log, failure, 'products.create', () =>
    app
      .stripe()
      .products.create(
        { name: input.name, metadata: { educator_id: viewer.user.id } },
        { idempotencyKey: `product-${viewer.user.id}-${shortHash(input.name)}` },
      ),
  );
  return { id: product.id, name: product.name };
}
