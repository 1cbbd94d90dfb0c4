import type { LiveState } from '../live-state.js';

/**
 * The live state as shown to a client that may not see the gateway's address (a passcode is set
 * and the request has no session): the host is blanked, and so is any mention of it in the last
 * connection error ("connect ECONNREFUSED 192.168.1.50:502"). `hostHidden` tells the page a gateway
 * is configured, so an offline one is not mistaken for none at all.
 */
export function withoutGatewayHost(state: LiveState): LiveState {
  const host = state.gateway.host;
  if (!host) return state;
  return {
    ...state,
    gateway: { ...state.gateway, host: '', hostHidden: true },
    lastError: state.lastError === null ? null : state.lastError.split(host).join('(gateway)'),
  };
}
