import { formatDateTime } from '../../kit/format.js';
import type { Snapshot } from '../types.js';

const WMO: Array<[number, string]> = [
  [0, 'Clear sky'],
  [3, 'Partly cloudy'],
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

export function Weather({ weather, unit }: { weather: NonNullable<Snapshot['weather']>; unit: Snapshot['units']['temperature'] }) {
  return (
    <div className="live" data-testid="weather">
      <div className="stat-value">{weather.outdoorTemp === null ? '—' : `${weather.outdoorTemp.toFixed(1)} °${unit === 'fahrenheit' ? 'F' : 'C'}`}</div>
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
