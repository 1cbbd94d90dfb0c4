import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';

/**
 * Opens one section of a settings page (one is shown at a time) from its section list, and returns
 * the energy section's form (`settings-<group>`), visible.
 */
export async function openSection(page: Page, label: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: label, exact: true }).click();
  const panel = page.getByTestId('open-section');
  await expect(panel).toHaveAttribute('aria-label', label);
  const form = panel.locator('form[data-testid^="settings-"]').first();
  await expect(form).toBeVisible();
  // The section's own form by its stable test id (the "open section" moves on when another opens).
  return page.getByTestId((await form.getAttribute('data-testid'))!);
}
