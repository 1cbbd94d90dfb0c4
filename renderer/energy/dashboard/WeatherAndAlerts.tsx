import { formatDateTime } from '../../kit/format.js';
import type { Snapshot } from '../types.js';

const WMO: Array<[number, string]> = [
  [0, 'Clear sky'],
  [1, 'Mainly clear'],
  [2, 'Partly cloudy'],
  [3, 'Overcast'],
  [48, 'Fog'],
  [57, 'Drizzle'],
  [67, 'Rain'],
  [77, 'Snow'],
  [82, 'Rain showers'],
  [86, 'Snow showers'],
  [99, 'Thunderstorm'],
];

/** The WMO weather code as words (Open-Meteo codes). */
export function weatherText(code: number | null): string {
  if (code === null) return '';
  return WMO.find(([max]) => code <= max)?.[1] ?? `Code ${code}`;
}

/** The kind of sky for a WMO code, for the icon. */
export function weatherKind(code: number | null): 'clear' | 'partly' | 'cloud' | 'fog' | 'rain' | 'snow' | 'storm' | null {
  if (code === null) return null;
  if (code <= 1) return 'clear';
  if (code === 2) return 'partly';
  if (code === 3) return 'cloud';
  if (code <= 48) return 'fog';
  if (code <= 67 || (code >= 80 && code <= 82)) return 'rain';
  if (code <= 77 || code === 85 || code === 86) return 'snow';
  return 'storm';
}

const CLOUD = 'M7 18h10a4 4 0 0 0 0-8 5.5 5.5 0 0 0-10.6 1.5A3.3 3.3 0 0 0 7 18z';

/** A small drawn weather icon (no emoji font needed); decorative, the words say the same. */
export function WeatherIcon({ code }: { code: number | null }) {
  const kind = weatherKind(code);
  if (!kind) return null;
  const sun = (
    <g stroke="var(--solar)" fill="var(--solar)">
      <circle cx="9" cy="9" r="3.5" />
      {[0, 45, 90, 135, 180, 225, 270, 315].map((a) => (
        <line key={a} x1={9 + 5 * Math.cos((a * Math.PI) / 180)} y1={9 + 5 * Math.sin((a * Math.PI) / 180)} x2={9 + 7 * Math.cos((a * Math.PI) / 180)} y2={9 + 7 * Math.sin((a * Math.PI) / 180)} strokeWidth="1.5" />
      ))}
    </g>
  );
  const cloud = <path d={CLOUD} fill="var(--surface-2)" stroke="var(--muted)" strokeWidth="1.5" />;
  return (
    <svg className="weather-icon" width="1.2em" height="1.2em" viewBox="0 0 24 24" aria-hidden="true" data-kind={kind} style={{ verticalAlign: '-0.2em' }}>
      {(kind === 'clear' || kind === 'partly') && sun}
      {kind !== 'clear' && cloud}
      {kind === 'rain' && <path d="M9 20l-1 3M13 20l-1 3M17 20l-1 3" stroke="var(--soc)" strokeWidth="1.5" />}
      {kind === 'snow' && <path d="M9 21h.01M13 22h.01M17 21h.01" stroke="var(--muted)" strokeWidth="2.5" strokeLinecap="round" />}
      {kind === 'storm' && <path d="M13 18l-2 3h3l-2 3" fill="none" stroke="var(--solar)" strokeWidth="1.5" />}
      {kind === 'fog' && <path d="M5 21h14M7 23h10" stroke="var(--muted)" strokeWidth="1.5" />}
    </svg>
  );
}

/** Outdoor temperature and weather icon for the page header. */
export function WeatherBadge({ weather, unit }: { weather: NonNullable<Snapshot['weather']>; unit: Snapshot['units']['temperature'] }) {
  return (
    <span className="badge" data-testid="header-weather" title={`${weatherText(weather.weatherCode)}${weather.location ? ` · ${weather.location}` : ''}`}>
      <WeatherIcon code={weather.weatherCode} /> {weather.outdoorTemp === null ? '—' : `${weather.outdoorTemp.toFixed(1)} °${unit === 'fahrenheit' ? 'F' : 'C'}`}
      {weather.location ? ` ${weather.location}` : ''}
    </span>
  );
}

export function Weather({ weather, unit }: { weather: NonNullable<Snapshot['weather']>; unit: Snapshot['units']['temperature'] }) {
  return (
    <div className="live" data-testid="weather">
      <div className="stat-value">
        <WeatherIcon code={weather.weatherCode} />{' '}{weather.outdoorTemp === null ? '—' : `${weather.outdoorTemp.toFixed(1)} °${unit === 'fahrenheit' ? 'F' : 'C'}`}</div>
      <div className="stat-label">
        {weatherText(weather.weatherCode)}
        {weather.location ? ` · ${weather.location}` : ''}
      </div>
    </div>
  );
}

export function Alerts({ alerts }: { alerts: Snapshot['alerts'] }) {
  if (alerts.length === 0) return <p className="muted">No active alerts.</p>;
  return (
    <ul data-testid="alerts">
      {alerts.map((a) => (
        <li key={a.id}>
          <strong>{a.name}</strong>: {a.message} <span className="muted small">since {formatDateTime(a.since)}</span>
        </li>
      ))}
    </ul>
  );
}
