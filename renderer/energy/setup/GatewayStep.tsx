import { useEffect, useRef, useState } from 'react';
import { api, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { Field } from '../../kit/Field.js';
import { testGateway } from '../features/gateway/gateway-tests.js';
import type { JsonSchema } from '../settings/schema.js';
import { schemaAt } from '../settings/form-values.js';
import { ownField } from '../settings/plain.js';

export interface Found {
  host: string;
  port: number;
  soc: number | null;
}

interface Props {
  host: string;
  port: string;
  setHost: (v: string) => void;
  setPort: (v: string) => void;
  error: string | null;
  onNext: () => void;
  /** The server's settings schema: the address and port fields' labels and hints. */
  schema: JsonSchema | null;
}

/** Step 1: find the gateway (a LAN scan when the address is blank), pick it, test it. */
export function GatewayStep({ host, port, setHost, setPort, error, onNext, schema }: Props) {
  const words = (path: string) => ownField(path, schema ? schemaAt(schema, path) : undefined);
  const hostWords = words('gateway.host');
  const portWords = words('gateway.port');
  const [scan, setScan] = useState<{ state: 'idle' | 'running' | 'done' | 'failed'; found: Found[]; text?: string }>({ state: 'idle', found: [] });
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const started = useRef(false);

  const discover = async () => {
    setScan({ state: 'running', found: [] });
    setTest(null);
    try {
      const r = await api.post<{ gateways: Found[]; scannedHosts: number; ms: number }>('/api/discover/gateway', {});
      setScan({ state: 'done', found: r.gateways, text: `Scanned ${r.scannedHosts} addresses in ${(r.ms / 1000).toFixed(1)} s.` });
      if (r.gateways.length === 1) {
        setHost(r.gateways[0]!.host);
        setPort(String(r.gateways[0]!.port));
      }
    } catch (err) {
      setScan({ state: 'failed', found: [], text: messageOf(err) });
    }
  };

  useEffect(() => {
    if (started.current || host.trim() !== '') return;
    started.current = true;
    void discover();
    // Runs once, when the wizard opens with a blank address.
  }, []);

  const runTest = async () => {
    setTesting(true);
    try {
      setTest({ ok: true, text: await testGateway(host, Number(port) || undefined) });
    } catch (err) {
      setTest({ ok: false, text: messageOf(err) });
    } finally {
      setTesting(false);
    }
  };

  return (
    <section className="card" aria-labelledby="step-gateway">
      <h2 id="step-gateway">1. Find your gateway</h2>
      {scan.state === 'running' && (
        <Banner kind="info" testId="scan-status">
          Scanning your network for a gateway… this takes a few seconds.
        </Banner>
      )}
      {scan.state === 'done' && scan.found.length === 0 && (
        <Banner kind="warn" testId="scan-status">
          No gateway answered on your network. {scan.text} Check it is powered and on the same network, or type its address below.
        </Banner>
      )}
      {scan.state === 'done' && scan.found.length === 1 && (
        <Banner kind="ok" testId="scan-status">
          Found a gateway at {scan.found[0]!.host}
          {scan.found[0]!.soc !== null ? ` (battery ${scan.found[0]!.soc}%)` : ''}. {scan.text}
        </Banner>
      )}
      {scan.state === 'done' && scan.found.length > 1 && (
        <fieldset data-testid="scan-status">
          <legend>Found {scan.found.length} gateways: pick yours</legend>
          <ul className="pick-list">
            {scan.found.map((g) => (
              <li key={`${g.host}:${g.port}`}>
                <label>
                  <input
                    type="radio"
                    name="gateway-pick"
                    checked={host === g.host && port === String(g.port)}
                    onChange={() => {
                      setHost(g.host);
                      setPort(String(g.port));
                      setTest(null);
                    }}
                  />{' '}
                  {g.host}:{g.port}
                  {g.soc !== null ? ` · battery ${g.soc}%` : ''}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      {scan.state === 'failed' && <Banner kind="error">Scan failed: {scan.text}</Banner>}
      <div className="row">
        <Field label={hostWords.label} hint={hostWords.hint} error={error}>
          {(p) => <input type="text" value={host} onChange={(e) => (setHost(e.target.value), setTest(null))} {...p} />}
        </Field>
        <Field label={portWords.label} hint={portWords.hint}>
          {(p) => <input type="text" inputMode="numeric" value={port} onChange={(e) => (setPort(e.target.value), setTest(null))} style={{ width: '7em' }} {...p} />}
        </Field>
      </div>
      {test && <Banner kind={test.ok ? 'ok' : 'error'} testId="test-result">{test.text}</Banner>}
      <div className="row">
        <button type="button" onClick={() => void discover()} disabled={scan.state === 'running'}>
          {scan.state === 'running' ? 'Scanning…' : 'Scan again'}
        </button>
        <button type="button" onClick={() => void runTest()} disabled={testing || !host.trim()}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" className="primary" onClick={onNext} disabled={!test?.ok} aria-describedby={test?.ok ? undefined : 'gateway-next-why'}>
          Next
        </button>
        {!test?.ok && (
          <span id="gateway-next-why" className="small muted" data-testid="gateway-next-why">
            {!host.trim() ? 'Type the gateway’s address (or scan), then test the connection to go on.' : test ? 'The gateway did not answer: fix the address and test again to go on.' : 'Press Test connection first: Next opens once the gateway answers.'}
          </span>
        )}
      </div>
    </section>
  );
}
