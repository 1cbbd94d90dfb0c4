import type os from 'node:os';
import { invalid } from '../../core/errors.js';
import { missingBindEntry, portProblem, type BindProbe, type PortClaim } from '../../core/listen-check.js';
import { labelAt } from '../../core/validate.js';
import { energySettingsSchema, type EnergySettings } from '../settings/energy-settings.js';

export interface ListenSettingsDeps {
  /** The address the pages listen on (BIND_HOST). */
  host: string;
  /** The port the pages listen on now (0 before the start). */
  ownPort(): number;
  /** Settings as the service started with them (a HomeKit port it bound then is its own). */
  running: EnergySettings;
  /** Ports the app's other service holds (the recording sync). */
  others(): PortClaim[];
  probe?: BindProbe;
  interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
}

const refuse = (field: string, message: string) => invalid(field, message, labelAt(energySettingsSchema, field.split('.')));

/**
 * Refuses (400 naming the field) a change to how the bridge listens that could never work: the
 * server or HomeKit port on a port the other service, the other of the two or another program
 * holds, a privileged port this process may not bind, a HomeKit address this PC does not have.
 * Only changed fields are checked, so a setting that already works is never refused.
 */
export async function checkListenSettings(deps: ListenSettingsDeps, prev: EnergySettings, next: EnergySettings): Promise<void> {
  const others = deps.others();
  const own = deps.ownPort();
  const server = next.general.serverPort;
  if (server !== prev.general.serverPort && server !== own) {
    const claims = [...others, ...(next.homekit.enabled ? [{ port: next.homekit.port, holder: 'HomeKit (homekit.port)' }] : [])];
    const problem = await portProblem({ port: server, host: deps.host, claims, probe: deps.probe });
    if (problem) throw refuse('general.serverPort', problem);
  }
  const homekit = next.homekit.port;
  const homekitOwn = deps.running.homekit.enabled && deps.running.homekit.port === homekit;
  if (next.homekit.enabled && (homekit !== prev.homekit.port || next.homekit.enabled !== prev.homekit.enabled) && !homekitOwn) {
    const claims = [...others, { port: server, holder: 'the energy bridge pages (general.serverPort)' }, ...(own ? [{ port: own, holder: 'the energy bridge pages' }] : [])];
    const problem = await portProblem({ port: homekit, host: '0.0.0.0', claims, probe: deps.probe });
    if (problem) throw refuse('homekit.port', problem);
  }
  if (JSON.stringify(next.homekit.bind) !== JSON.stringify(prev.homekit.bind)) {
    const missing = missingBindEntry(next.homekit.bind, deps.interfaces);
    if (missing) throw refuse('homekit.bind', `${missing} on this computer`);
  }
}
