import { useId, useState } from 'react';
import { api, messageOf } from '../../../api.js';
import { Banner } from '../../../kit/Banner.js';
import { ConfirmDialog } from '../../../kit/ConfirmDialog.js';
import { WhyDisabled } from '../../../kit/SectionedPage.js';

const LOCKED_WHY = 'Unlock the settings with the passcode to see or reset the pairing.';

/** GET /api/homehub/pairing (and the reset's answer). */
export interface PairingInfo {
  enabled: boolean;
  running: boolean;
  paired: boolean;
  port: number | null;
  bind: string[];
  error: string | null;
  setupUri: string;
  pinCode: string;
  qrSvg: string;
}

function bridgeState(p: PairingInfo): { kind: 'ok' | 'info' | 'warn' | 'error'; text: string } {
  if (p.error) return { kind: 'error', text: `The HomeKit bridge could not start: ${p.error}` };
  if (!p.enabled) return { kind: 'info', text: 'HomeKit is off: tick "HomeKit" above, save, and restart the bridge before pairing.' };
  if (!p.running) return { kind: 'warn', text: 'HomeKit is enabled but not running yet: restart the bridge to publish it.' };
  if (p.paired) return { kind: 'ok', text: `Paired with the Home app (bridge on port ${p.port}). To add it to another home, reset the pairing below.` };
  return { kind: 'info', text: `Ready to pair (bridge on port ${p.port}${p.bind.length ? `, ${p.bind.join(', ')}` : ''}).` };
}

/** HomeKit pairing: the setup code, QR code and a short how-to; an explicit reset of the pairing. */
export function HomeKitPairing({ locked }: { locked: boolean }) {
  const [pairing, setPairing] = useState<PairingInfo | null>(null);
  const [result, setResult] = useState<{ kind: 'ok' | 'error' | 'info'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const showWhy = useId();
  const resetWhy = useId();
  const run = async (call: () => Promise<PairingInfo>, done?: string) => {
    setResult(null);
    setBusy(true);
    try {
      setPairing(await call());
      if (done) setResult({ kind: 'ok', text: done });
    } catch (err) {
      setResult({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    setConfirming(false);
    void run(() => api.post<PairingInfo>('/api/homehub/pairing/reset', {}), 'Pairing reset: add the bridge again in the Home app.');
  };
  const state = pairing && bridgeState(pairing);
  return (
    <div data-testid="homekit-pairing">
      <button type="button" onClick={() => void run(() => api.get<PairingInfo>('/api/homehub/pairing'))} disabled={locked || busy} aria-describedby={locked ? showWhy : undefined}>
        Show pairing code
      </button>
      <WhyDisabled id={showWhy} why={locked ? LOCKED_WHY : null} />
      {result && <Banner kind={result.kind}>{result.text}</Banner>}
      {pairing && state && (
        <>
          <Banner kind={state.kind} testId="homekit-state">
            {state.text}
          </Banner>
          <div className="row qr">
            <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pairing.qrSvg)}`} alt={`HomeKit pairing QR code, setup code ${pairing.pinCode}`} />
            <div>
              <div className="small muted">Setup code</div>
              <div className="stat-value" data-testid="homekit-pin">
                {pairing.pinCode}
              </div>
              <div className="small muted">{pairing.setupUri}</div>
            </div>
          </div>
          <ol className="small" data-testid="homekit-howto">
            <li>On an iPhone or iPad on the same network, open the Home app and tap + › Add Accessory.</li>
            <li>Scan the QR code, or tap "More options…", pick the bridge and type the setup code.</li>
            <li>Confirm "Add Anyway" (the bridge is not certified), then name the rooms. The battery, the power flows and alert sensors appear.</li>
          </ol>
          <button type="button" onClick={() => setConfirming(true)} disabled={locked || busy} aria-describedby={locked ? resetWhy : undefined}>
            Reset pairing
          </button>
          <WhyDisabled id={resetWhy} why={locked ? LOCKED_WHY : null} />
          <ConfirmDialog open={confirming} title="Forget every paired Home app?" confirmLabel="Reset pairing" danger busy={busy} onConfirm={reset} onCancel={() => setConfirming(false)}>
            <p>The bridge gets a new identity: every Home app that added it loses it and must add it again with the new code.</p>
          </ConfirmDialog>
        </>
      )}
    </div>
  );
}
