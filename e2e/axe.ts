import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The WCAG 2.1 A/AA rules the pages are held to. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Serious and critical axe-core violations (WCAG 2.1 A/AA) on the page as it is now, one line per
 * rule with the elements it hit, so a failing assertion says what to fix.
 */
export async function seriousViolations(page: Page, include: readonly string[] = []): Promise<AxeFinding[]> {
  // Legacy mode runs axe in the page itself. The default opens a blank page to merge per-frame results,
  // which costs seconds a check on a busy machine; these pages have no frames to merge.
  let builder = new AxeBuilder({ page }).withTags(WCAG).setLegacyMode(true);
  // Only these parts of the page, when given (a page's own regions, quicker on a busy machine).
  for (const selector of include) builder = builder.include(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: String(v.impact), help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
