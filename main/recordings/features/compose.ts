import type { RecordingsStore } from '../store/recordings-store.js';
import type { SyncHooks } from '../sync/engine.js';
import type { SyncSummary } from '../store/sync-runs-store.js';
import type { RecordingFeature } from './feature.js';

/**
 * The sync engine's hooks from the running features, in list order: each after-download step sees
 * the row as the step before left it; refresh summaries merge; housekeeping runs for each. Hooks
 * given by the caller (tests) replace the media-server refresh and the after-refresh step, and run
 * after the features' own after-download and housekeeping steps.
 */
export function composeHooks(features: readonly RecordingFeature[], recordings: RecordingsStore, extra?: SyncHooks): SyncHooks {
  const own = features.map((f) => f.hooks ?? {});
  const mediaServer = own.map((h) => h.mediaServer).find(Boolean);
  const afterRefreshers = own.flatMap((h) => (h.afterRefresh ? [h.afterRefresh] : []));
  return {
    ...(mediaServer ? { mediaServer } : {}),
    ...(afterRefreshers.length
      ? {
          async afterRefresh(downloaded, refresh, signal) {
            let summary: Partial<SyncSummary> | undefined;
            for (const step of afterRefreshers) {
              const part = await step(downloaded, refresh, signal);
              if (part) summary = { ...summary, ...part };
            }
            return summary;
          },
        }
      : {}),
    ...extra,
    async afterDone(row, show, signal) {
      let current = row;
      for (const h of own) {
        if (!h.afterDone) continue;
        await h.afterDone(current, show, signal);
        current = recordings.get(row.box_id) ?? current;
      }
      await extra?.afterDone?.(current, show, signal);
    },
    housekeeping() {
      for (const h of own) h.housekeeping?.();
      extra?.housekeeping?.();
    },
  };
}
