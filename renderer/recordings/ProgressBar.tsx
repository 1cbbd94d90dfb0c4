import { PHASE_LABEL } from './format.js';
import type { Progress } from './types.js';

/** Live progress of one operation: phase, a percent bar (or an indeterminate one), rate or `segment i/N`, ETA. */
export function ProgressBar({ progress, name }: { progress: Progress; name: string }) {
  const pct = progress.percent === null ? null : Math.max(0, Math.min(100, progress.percent));
  const phase = PHASE_LABEL[progress.phase] ?? progress.phase;
  const text = [phase, pct === null ? null : `${Math.floor(pct)}%`, progress.detail, progress.etaLabel ? `ETA ${progress.etaLabel}` : null].filter(Boolean).join(' · ');
  return (
    <div className="progress" data-testid="progress">
      <div
        className={`bar${pct === null ? ' indeterminate' : ''}`}
        role="progressbar"
        aria-label={`${phase} ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct === null ? undefined : Math.round(pct * 10) / 10}
        aria-valuetext={text}
      >
        <span style={pct === null ? undefined : { width: `${pct}%` }} />
      </div>
      <span className="progress-text small">{text}</span>
    </div>
  );
}
