import { describe, expect, it } from 'vitest';
import { NotABoxError } from '../box/description.js';
import { boxUnreachable, networkCause } from './box-errors.js';

/** What Node's fetch throws: `fetch failed` with the socket error as its cause. */
const fetchFailed = (code: string, message = `connect ${code} 192.168.1.40:49152`) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(message), { code }) });

describe('box error messages', () => {
  it('turns "fetch failed" into the cause in plain words', () => {
    expect(networkCause(fetchFailed('ECONNREFUSED'))).toBe('connection refused');
    expect(networkCause(fetchFailed('EHOSTUNREACH'))).toBe('host unreachable');
    expect(networkCause(fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND fetchbox.lan'))).toBe('unknown host name');
    expect(networkCause(fetchFailed('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'))).toBe('no answer (timed out)');
    expect(networkCause(new Error('timed out after 5000 ms'))).toBe('no answer (timed out after 5000 ms)');
    expect(networkCause(new Error('something odd'))).toBe('something odd');
  });

  it('names the address, the cause and what to do', () => {
    expect(boxUnreachable('192.168.1.40:49152', fetchFailed('ECONNREFUSED'))).toBe(
      'cannot reach the box at 192.168.1.40:49152: connection refused — is it on? check the box address in settings',
    );
    expect(boxUnreachable('192.168.1.1:80', new NotABoxError('not the recording box (manufacturerURL http://router.example/)'))).toBe(
      'the device at 192.168.1.1:80 is not a recording box (not the recording box (manufacturerURL http://router.example/)) — check the box address in settings',
    );
    expect(boxUnreachable('192.168.1.40:49152', new Error('description http://192.168.1.40:49152/MediaServer.xml answered HTTP 404'))).toBe(
      'the box at 192.168.1.40:49152 answered HTTP 404 for its description — is this the box? check the box address in settings',
    );
  });
});
