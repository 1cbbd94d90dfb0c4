import { z } from 'zod';
import { snapshotEntities, snapshotGauges, type BlockOf } from '../feature.js';
import { alertEntrySchema } from './alert-entry.js';

/** What the alerts publish: the rules firing now in the snapshot, their count on MQTT and in the metrics. */
export const alertsBlock = {
  alerts: z.array(alertEntrySchema),
};
export type AlertsBlock = BlockOf<typeof alertsBlock>;

export const alertsEntities = snapshotEntities<AlertsBlock>([
  { key: 'active_alerts', component: 'sensor', name: 'Active alerts', icon: 'mdi:alert', stateClass: 'measurement', value: (s) => s.alerts.length },
]);

export const alertsGauges = snapshotGauges<AlertsBlock>([{ name: 'alerts_active', help: 'Alert rules firing now.', value: (s) => s.alerts.length }]);
