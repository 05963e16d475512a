import type { PlatformPromoCodeInput, PromoCodeView } from '../../shared/promo-codes.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { createPlatformCode, endCode, promoCodeViews } from '../payments/promo-codes.js';
import { audit, requireAdmin } from './require-admin.js';

/**
 * The admin console's platform promo codes (ADR 0070): any course, the platform bears the
 * discount (out of its fee). Payments owns the codes; here the role is checked and audited.
 */
export async function listPlatformCodes(app: AppServices, viewer: Viewer): Promise<PromoCodeView[]> {
  await requireAdmin(app, viewer);
  return promoCodeViews(app.database.db, { platform: true });
}

export async function createPlatformPromoCode(app: AppServices, viewer: Viewer, input: PlatformPromoCodeInput): Promise<PromoCodeView> {
  await requireAdmin(app, viewer);
  const code = await createPlatformCode(app, viewer.user.id, input);
  await app.database.db.transaction((tx) =>
    audit(tx, viewer, { action: 'promo_code.create', targetId: code.id, details: { code: code.code, label: code.label } }),
  );
  return code;
}

export async function endPlatformPromoCode(app: AppServices, viewer: Viewer, codeId: string): Promise<PromoCodeView> {
  await requireAdmin(app, viewer);
  const code = await endCode(app, codeId, 'platform');
  await app.database.db.transaction((tx) =>
    audit(tx, viewer, { action: 'promo_code.end', targetId: code.id, details: { code: code.code } }),
  );
  return code;
}
