import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../core/logger.js';
import { createSettingsStore } from '../core/settings-store.js';

const bounds = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(200).max(20_000),
});
export type WindowBounds = z.infer<typeof bounds>;

/** The tray app's own settings (`<data folder>/tray.json`); the services' settings live in their pages. */
export const trayPrefsSchema = z.object({
  /** Desktop notifications (alerts, syncs, gateway offline); on by default. */
  notifications: z.boolean().default(true),
  /** Last size and position of each window, by page. */
  windows: z.record(z.string(), bounds).default({}),
});
export type TrayPrefs = z.infer<typeof trayPrefsSchema>;

export function createTrayPrefs(dataDir: string, logger: Logger) {
  const store = createSettingsStore({ file: path.join(dataDir, 'tray.json'), schema: trayPrefsSchema, seed: () => trayPrefsSchema.parse({}), logger });
  return {
    get: () => store.get(),
    setNotifications(on: boolean): void {
      store.replace({ ...store.get(), notifications: on });
    },
    boundsOf: (page: string): WindowBounds | undefined => store.get().windows[page],
    saveBounds(page: string, b: WindowBounds): void {
      const parsed = bounds.safeParse(b);
      if (!parsed.success) return;
      const cur = store.get();
      if (JSON.stringify(cur.windows[page]) === JSON.stringify(parsed.data)) return;
      store.replace({ ...cur, windows: { ...cur.windows, [page]: parsed.data } });
    },
    file: store.file,
  };
}
export type TrayPrefsStore = ReturnType<typeof createTrayPrefs>;
