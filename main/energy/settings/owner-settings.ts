import { ownerOnlyError } from '../../core/owner-only.js';
import { labelAt } from '../../core/validate.js';
import { CONTROL_OWNER_FIELDS } from '../control/settings.js';
import { changedFields, energySettingsSchema, type EnergySettings } from './energy-settings.js';

/**
 * The bridge's settings that name how the app listens on the PC (its port and host names, the
 * HomeKit port and network connections) and battery control (turning it on, its bounds): changed
 * only by the owner (core/owner-only.ts).
 */
export const OWNER_ONLY_SETTINGS = ['general.serverPort', 'general.allowedHosts', 'homekit.port', 'homekit.bind', ...CONTROL_OWNER_FIELDS] as const;

/** Throws 403 `owner_only` naming the first owner-only field a write by a guest would change. */
export function refuseGuestChanges(prev: EnergySettings, next: EnergySettings, owner: boolean): void {
  if (owner) return;
  const changed = changedFields(prev, next).find((f) => (OWNER_ONLY_SETTINGS as readonly string[]).includes(f));
  if (changed) throw ownerOnlyError(changed, labelAt(energySettingsSchema, changed.split('.')));
}
