/** Types shared with the service: type-only imports, erased from the bundle. */
export type { Snapshot } from '../../main/energy/published.js';
export type { EnergyLiveState as LiveState } from '../../main/energy/published.js';
import type { Snapshot } from '../../main/energy/published.js';

export type InverterDevice = Extract<Snapshot['devices'][number], { type: 'inverter' }>;
export type SmartLoadDevice = Extract<Snapshot['devices'][number], { type: 'smartLoad' }>;
