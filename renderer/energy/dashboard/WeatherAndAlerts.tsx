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

/** A small symbol for the WMO code (decorative; the words say the same). */
export function weatherIcon(code: number | null): string {
  if (code === null) return '';
  if (code === 0) return '☀️';
  if (code <= 2) return '🌤️';
  if (code === 3) return '☁️';
  if (code <= 48) return '🌫️';
  if (code <= 67 || (code >= 80 && code <= 82)) return '🌧️';
  if (code <= 77 || code === 85 || code === 86) return '❄️';
  return '⛈️';
}

/** Outdoor temperature and weather icon for the page header. */
export function WeatherBadge({ weather, unit }: { weather: NonNullable<Snapshot['weather']>; unit: Snapshot['units']['temperature'] }) {
  return (
    <span className="badge" data-testid="header-weather" title={`${weatherText(weather.weatherCode)}${weather.location ? ` · ${weather.location}` : ''}`}>
      <span aria-hidden="true">{weatherIcon(weather.weatherCode)}</span> {weather.outdoorTemp === null ? '—' : `${weather.outdoorTemp.toFixed(1)} °${unit === 'fahrenheit' ? 'F' : 'C'}`}
      {weather.location ? ` ${weather.location}` : ''}
    </span>
  );
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
