import { useId, useState } from 'react';
import { messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { WhyDisabled } from '../../kit/SectionedPage.js';

type Result = { kind: 'ok' | 'error' | 'info'; text: string } | null;

/** A button that calls a test endpoint and shows what came back (or the server's error); `disabled` is the reason it cannot run yet. */
export function TestButton({ label, run, disabled }: { label: string; run: () => Promise<string>; disabled?: string | null }) {
  const whyId = useId();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>(null);
  const click = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ kind: 'ok', text: await run() });
    } catch (err) {
      setResult({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span>
      <button type="button" onClick={() => void click()} disabled={busy || Boolean(disabled)} aria-describedby={disabled ? whyId : undefined}>
        {busy ? 'Testing…' : label}
      </button>
      <WhyDisabled id={whyId} why={busy ? null : (disabled ?? null)} />
      {result && <Banner kind={result.kind}>{result.text}</Banner>}
    </span>
  );
}
