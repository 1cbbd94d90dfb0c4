import { useEffect, useState } from 'react';
import { Link } from '../../app/router.js';
import { formatAgo, formatDateTime } from '../../kit/format.js';
import { OfflineBanner } from '../../kit/OfflineBanner.js';
import { DemoClockBadge } from '../DemoClock.js';
import { useLive, useNow } from '../use-live.js';
import { isReading, readingsOf, SCALE_MAX, SCALE_MIN, stepScale, type Reading } from './readings.js';

const SCALE_KEY = 'energy.wall.scale';
const THEME_KEY = 'energy.wall.theme';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage disabled: the choice lasts for this page only */
  }
}

/** A preference kept on this device (the wall tablet keeps its own text size and theme). */
function useDevicePref<T extends string | number>(key: string, initial: T, parse: (s: string) => T | null): [T, (v: T) => void] {
  const [v, setV] = useState<T>(() => {
    const s = stored(key);
    return (s !== null ? parse(s) : null) ?? initial;
  });
  return [
    v,
    (next: T) => {
      setV(next);
      store(key, String(next));
    },
  ];
}

/**
 * The wall view: four big live readings on a dark page for a tablet that shows them all day
 * (`/wall`), and one reading filling the screen (`/wall/solar`, …). Text size and light/dark are
 * kept on the device. Same live data as the dashboard (the event stream); an offline gateway or a
 * lost bridge is said in words above the numbers, which dim.
 */
export function WallPage({ path }: { path: string }) {
  const { snapshot, streamOpen, error } = useLive();
  const now = useNow();
  const [scale, setScale] = useDevicePref<number>(SCALE_KEY, 1, (s) => {
    const n = Number(s);
    return Number.isFinite(n) && n >= SCALE_MIN && n <= SCALE_MAX ? n : null;
  });
  const [theme, setTheme] = useDevicePref<'dark' | 'light'>(THEME_KEY, 'dark', (s) => (s === 'dark' || s === 'light' ? s : null));
  const key = path.split('/')[2] ?? '';
  const one = isReading(key) ? key : null;
  const readings = snapshot ? readingsOf(snapshot) : [];
  const shown = one ? readings.filter((r) => r.key === one) : readings;
  const single = one ? readings.find((r) => r.key === one) : undefined;

  useEffect(() => {
    document.title = `${single ? `${single.label} · ` : ''}Wall view · Energy bridge`;
  }, [single?.label]);

  const stale = snapshot ? !snapshot.connected || !streamOpen : false;
  const status = !snapshot
    ? error ?? 'Waiting for the first reading…'
    : !streamOpen
      ? `Lost the connection to the bridge; reconnecting. Last reading ${formatAgo(snapshot.lastUpdated, now)}.`
      : !snapshot.connected
        ? snapshot.lastUpdated
          ? `Gateway not answering since ${formatDateTime(snapshot.lastUpdated)}: last known values, not live.`
          : 'Waiting for the first reading from the gateway…'
        : `Live · updated ${formatAgo(snapshot.lastUpdated, now)}`;

  const fullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };

  return (
    <div className={`wall${one ? ' wall-one' : ''}`} data-theme={theme} style={{ ['--wall-scale' as string]: String(scale) }} data-testid="wall">
      <header className="wall-bar">
        <nav aria-label="Wall view" className="wall-nav">
          <Link href="/">Dashboard</Link>
          {one && <Link href="/wall">All readings</Link>}
        </nav>
        <div className="wall-controls" role="group" aria-label="Display">
          <button type="button" onClick={() => setScale(stepScale(scale, -1))} disabled={scale <= SCALE_MIN}>
            A− <span className="sr-only">Smaller text</span>
          </button>
          <output aria-live="polite" data-testid="wall-scale" aria-label="Text size">
            {Math.round(scale * 100)}%
          </output>
          <button type="button" onClick={() => setScale(stepScale(scale, 1))} disabled={scale >= SCALE_MAX}>
            A+ <span className="sr-only">Larger text</span>
          </button>
          <button type="button" aria-pressed={theme === 'dark'} onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
            Dark
          </button>
          {document.fullscreenEnabled && (
            <button type="button" onClick={fullScreen}>
              Full screen
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="wall-main">
        <OfflineBanner service="energy bridge" />
        <h1 className={one ? 'wall-title' : 'sr-only'}>{single ? single.label : 'Energy now'}</h1>
        <p className={`wall-status${stale ? ' warn' : ''}`} role="status" data-testid="wall-status">
          {status} <DemoClockBadge />
        </p>
        <div className={`wall-grid${stale ? ' stale' : ''}`} data-stale={stale ? 'true' : 'false'}>
          {shown.map((r) => (one ? <Big key={r.key} r={r} /> : <Tile key={r.key} r={r} />))}
        </div>
        {one && (
          <nav aria-label="Other readings" className="wall-others">
            {readings
              .filter((r) => r.key !== one)
              .map((r) => (
                <Link key={r.key} href={`/wall/${r.key}`}>
                  {r.label} {r.value}
                </Link>
              ))}
          </nav>
        )}
      </main>
    </div>
  );
}

/** One reading in the four-up grid; the whole tile opens that reading full screen. */
function Tile({ r }: { r: Reading }) {
  return (
    <Link href={`/wall/${r.key}`} className={`wall-tile ${r.key}`} style={{ ['--tile' as string]: `var(--${r.color})` }} data-testid={`wall-${r.key}`} title={`${r.label}: show full screen`}>
      <span className="wall-label">{r.label}</span>
      <span className="wall-value">{r.value}</span>
      <span className="wall-detail">{r.detail}</span>
    </Link>
  );
}

/** One reading filling the screen. */
function Big({ r }: { r: Reading }) {
  return (
    <div className={`wall-big ${r.key}`} style={{ ['--tile' as string]: `var(--${r.color})` }} data-testid={`wall-${r.key}`}>
      <span className="wall-value">{r.value}</span>
      <span className="wall-detail">{r.detail}</span>
    </div>
  );
}
