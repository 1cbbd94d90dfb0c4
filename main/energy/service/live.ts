import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { EventStream, type EventStreamOptions } from '../../core/event-stream.js';
import { emptyLiveState, LiveStateStore, type LiveState } from '../live-state.js';
import { withoutGatewayHost } from '../live/public-state.js';
import type { EnergySettings } from '../settings/energy-settings.js';
import { initialLiveFields, type EnergyLiveState, type Snapshot } from '../published.js';

export interface EnergyLiveDeps {
  settings: () => EnergySettings;
  clock: Clock;
  logger: Logger;
  /** Whether a passcode is set now: then clients without a session see the gateway host blanked. */
  passcodeSet: () => boolean;
  /** This poll's snapshot, sent as `event: snapshot` after each state event (null before the service is up). */
  snapshot?: () => Snapshot | null;
  /** Event stream tuning (tests: a small unread-buffer bound). */
  eventStream?: Pick<EventStreamOptions, 'maxBufferedBytes' | 'heartbeatMs' | 'maxPerAddress'>;
}

export interface EnergyLive {
  state: LiveStateStore<EnergyLiveState>;
  events: EventStream;
  /** Stops publishing the state to the event stream (the stream itself is closed by the service). */
  unsubscribe: () => void;
}

/**
 * The live state, starting empty at the configured gateway, and the event stream every change of it
 * is published on: the state (the spec's unnamed event), then that poll's snapshot as `event: snapshot`.
 */
export function createEnergyLive({ settings, clock, logger, passcodeSet, snapshot, eventStream }: EnergyLiveDeps): EnergyLive {
  const s = settings();
  // The core's fields, then each feature's before it publishes (published.ts).
  const state = new LiveStateStore(emptyLiveState({ host: s.gateway.host, port: s.gateway.port }, s.polling.intervalMs, initialLiveFields()) as EnergyLiveState);
  const events = new EventStream(clock, {
    maxClients: () => settings().general.eventStreamMaxClients,
    publicView: (data) => (passcodeSet() ? withoutGatewayHost(data as LiveState) : data),
    logger,
    ...eventStream,
  });
  const unsubscribe = state.subscribe((next) => {
    events.broadcast(next);
    if (events.clientCount === 0) return;
    const snap = snapshot?.();
    if (snap) events.broadcastNamed({ event: 'snapshot', data: snap });
  });
  return { state, events, unsubscribe };
}
