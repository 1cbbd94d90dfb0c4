import axe from 'axe-core';
import type { Page } from '@playwright/test';

/** The WCAG A/AA rule tags the pages are held to (axe-core's wcag2a/wcag2aa: the rules a sweep of every page can afford). */
const WCAG = ['wcag2a', 'wcag2aa'];

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

type AxeInPage = { axe?: typeof axe };

/**
 * Serious and critical axe-core violations (WCAG A/AA) on the page as it is now, one line per
 * rule with the elements it hit, so a failing assertion says what to fix. `include`: only these
 * parts of the page; `rules`: only these rules (default: every rule of the tags above).
 *
 * axe runs in the page itself, put there once per loaded document (a sweep that moves through the
 * app without reloading pays for it once), and reports violations only: the passes, which it would
 * otherwise describe element by element, are most of its time on a busy machine.
 */
export async function seriousViolations(page: Page, include: readonly string[] = [], rules?: readonly string[]): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const options: axe.RunOptions = {
    runOnly: rules ? { type: 'rule', values: [...rules] } : { type: 'tag', values: WCAG },
    resultTypes: ['violations'],
  };
  const violations = await page.evaluate(
    async ({ include, options }) => {
      const { axe: inPage } = window as unknown as AxeInPage;
      const result = await inPage!.run(include.length ? { include: include.map((s) => [s]) } : document, options);
      return result.violations;
    },
    { include: [...include], options },
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: String(v.impact), help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

export type Scheme = 'light' | 'dark';
export const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/**
 * Goes to a page of the single-page app without reloading it (the router follows pushState +
 * popstate, as Back and Forward do): the sweep reuses one loaded page for every route.
 */
export async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The page links of the app's header (what a user can reach from the navigation). */
export async function headerLinks(page: Page): Promise<string[]> {
  return page.locator('header nav a[href^="/"]').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
}

/** The WCAG A/AA rules whose outcome depends on colours: all a change of colour scheme can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Checks the page as it is now in light and then dark (switched by emulating the device's colour
 * scheme, no reload), recording what axe finds under `name · light|dark`. Light runs every WCAG A/AA
 * rule; dark changes only colours (same elements, same layout), so it runs the colour rules.
 * `themed` sets a page's own theme control first (the wall view keeps its own light/dark choice).
 */
export async function checkBothSchemes(
  page: Page,
  name: string,
  found: Record<string, AxeFinding[]>,
  themed?: (scheme: Scheme) => Promise<void>,
): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await themed?.(scheme);
    const violations = await seriousViolations(page, [], scheme === 'dark' ? COLOUR_RULES : undefined);
    if (violations.length) found[`${name} · ${scheme}`] = violations;
  }
}
