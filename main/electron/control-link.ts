import type { EnergyService } from '../energy/index.js';

/** What the tray shows of battery control (docs/battery-control.md). */
export interface TrayControl {
  /** Control is on and not in Automatic (or remote control is still on): the tray offers the kill switch. */
  active: boolean;
  dryRun: boolean;
  /** The mode in words. */
  description: string;
}

export interface ControlLink {
  /** The control status as GET /api/control gives it; null when the bridge does not answer it. */
  status(): Promise<TrayControl | null>;
  /** The kill switch: POST /api/control/kill, the same route and path the dashboard uses. */
  kill(): Promise<{ ok: boolean; message: string }>;
}

/**
 * The tray's way to battery control: through the energy service's own routes (in process, as the
 * tray reads the recording sync's history), so the kill switch goes through the same owner rule,
 * rails and audit log as the dashboard's. The tray is the PC itself (the owner); with a passcode set
 * it holds a session for that one request only.
 */
export function createControlLink(energy: Pick<EnergyService, 'app' | 'security'>): ControlLink {
  return {
    async status() {
      const res = await energy.app.inject({ method: 'GET', url: '/api/control' });
      if (res.statusCode !== 200) return null;
      const b = res.json() as { enabled: boolean; dryRun: boolean; mode: { mode: string }; remoteControl: boolean; description: string };
      return { active: b.enabled && (b.mode.mode !== 'automatic' || b.remoteControl), dryRun: b.dryRun, description: b.description };
    },
    async kill() {
      const session = energy.security.passcodes.isSet ? energy.security.sessions.issue() : null;
      try {
        const res = await energy.app.inject({
          method: 'POST',
          url: '/api/control/kill',
          remoteAddress: '127.0.0.1',
          headers: session ? { authorization: `Bearer ${session.token}` } : {},
        });
        const body = res.json() as { message?: string; error?: { message?: string } };
        if (res.statusCode === 200) return { ok: true, message: body.message ?? 'Automatic: the plant runs on its own.' };
        return { ok: false, message: body.error?.message ?? `The energy bridge answered ${res.statusCode}.` };
      } catch (err) {
        return { ok: false, message: `The energy bridge did not answer: ${(err as Error).message}` };
      } finally {
        if (session) energy.security.sessions.revoke(session.token);
      }
    },
  };
}
