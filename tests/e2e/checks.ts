import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, type Page } from '@playwright/test';

/**
 * Page checks shared by the end-to-end specs: axe (serious and critical violations,
 * described for the report), the page's width, and "fits 360 px" with optional screenshots.
 */

/**
 * The rules whose violations can only be minor or moderate: axe gives each violation its
 * rule's impact (axe-core 4.10, `_finalizeRuleResult`), so they can never fail the check below
 * and are not run. With the passes not collected, axe cost a third of what it did: about 2 s of
 * Chromium's CPU a page before, on a two-core machine where the suite is CPU-bound
 * (docs/decisions/0078-e2e-cpu.md). Read from the axe-core that @axe-core/playwright runs.
 */
const LOW_IMPACT = new Set(['minor', 'moderate']);
export const rulesThatCannotBeSerious = ((axe as unknown as { _audit?: { rules: { id: string; impact?: string }[] } })._audit?.rules ?? [])
  .filter((r) => r.impact && LOW_IMPACT.has(r.impact))
  .map((r) => r.id);

export async function seriousViolations(page: Page, opts: { exclude?: string } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).disableRules(rulesThatCannotBeSerious);
  if (opts.exclude) builder.exclude(opts.exclude);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export const scrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

/**
 * The page fits a 360 px wide phone (no sideways scroll); with AGORA_SHOTS=1 it is also
 * screenshot at its own size and at 360 px, as /tmp/agora-<prefix>-<name>[-360].png.
 */
export async function fitsNarrowScreen(page: Page, prefix: string, name: string) {
  const size = page.viewportSize()!;
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-${prefix}-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(() => scrollWidth(page), { message: `${name} fits 360 px` }).toBeLessThanOrEqual(360);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-${prefix}-${name}-360.png`, fullPage: true });
  await page.setViewportSize(size);
}
