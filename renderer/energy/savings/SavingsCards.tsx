import { Link } from '../../app/router.js';
import { Card } from '../../kit/Card.js';
import { formatKwh, formatMoney } from '../../kit/format.js';
import type { Snapshot } from '../types.js';
import { eveningWorthText, fullAtText, priceHoursText, solarTodayText } from './day-ahead-words.js';
import { paidInsteadOf, savedOrCost, selfSufficiencyText } from './money-words.js';


/** Dashboard cards: saved today, and the day ahead (solar forecast and battery outlook). */
export function SavingsCards({ snapshot }: { snapshot: Snapshot }) {
  const today = snapshot.savings?.today;
  const outlook = snapshot.outlook;
  return (
    <>
      {today && (
        <Card title="Saved today" id="saved-today">
          {today.currency ? (
            <p data-testid="saved-today">
              <SavedToday today={today} />
            </p>
          ) : (
            <p data-testid="saved-today">Set a tariff in Settings to see what today saved.</p>
          )}
          <p className="small muted">
            <span data-testid="self-sufficiency">{selfSufficiencyText(today, (v) => formatMoney(v, today.currency ?? 'EUR'))}</span>{' '}
            <Link href="/savings">Savings by month and year</Link>
          </p>
        </Card>
      )}
      {outlook && (
        <Card title="The day ahead" id="day-ahead">
          <p data-testid="solar-forecast">
            {outlook.solar.today.expectedKwh !== null ? (
              <>{solarTodayText(outlook.solar)}</>
            ) : outlook.solar.error ? (
              <>No solar forecast: {outlook.solar.error}.</>
            ) : outlook.solar.basis === 'none' ? (
              <>No solar forecast yet: turn on weather with a place, and set the panels&apos; rated size in Settings (or wait for three days of history).</>
            ) : (
              <>No solar forecast yet: turn on weather with a place in Settings.</>
            )}
          </p>
          {outlook.solar.yesterday.forecastKwh !== null && (
            <p className="small" data-testid="solar-yesterday">
              Yesterday: forecast {formatKwh(outlook.solar.yesterday.forecastKwh, 1)}, came {formatKwh(outlook.solar.yesterday.actualKwh, 1)}.
            </p>
          )}
          {outlook.solar.kwhPerKwhM2 !== null && (
            <p className="small muted" data-testid="solar-basis">
              {outlook.solar.basis === 'history'
                ? `Scaled from this plant's last ${outlook.solar.fitDays} days: ${outlook.solar.kwhPerKwhM2.toFixed(2)} kWh per kWh/m² of sunlight.`
                : `No history to learn from yet: assumes ${outlook.solar.kwhPerKwhM2.toFixed(2)} kWh per kWh/m² from the rated ${outlook.solar.ratedKwp} kWp.`}
            </p>
          )}
          {outlook.battery ? (
            <ul data-testid="battery-outlook">
              <li data-testid="outlook-full-at">{fullAtText(outlook.battery)}</li>
              {outlook.battery.windows.map((w) => (
                <li key={w.name + w.startsAt} data-covers={w.covers ? 'true' : 'false'}>
                  {w.name}: {w.message}.
                </li>
              ))}
              {outlook.battery.windows.length === 0 && <li>No peak window left today.</li>}
            </ul>
          ) : (
            <p className="small muted">Battery outlook: waiting for the battery&apos;s state of charge and capacity.</p>
          )}
          {outlook.battery && (
            <p className="small muted">
              From the usual load for this weekday and hour{outlook.battery.loadBasis === 'current' ? ' (no history yet: the load right now)' : ''}
              {outlook.battery.solarBasis === 'none' ? ', without a solar forecast' : ' and the solar forecast'}; reserve {outlook.battery.reserveSoc}%.
            </p>
          )}
          {outlook.prices && (
            <ul data-testid="day-ahead-prices">
              <li data-testid="price-hours">{priceHoursText(outlook.prices)}</li>
              {eveningWorthText(outlook.prices) && <li data-testid="evening-worth">{eveningWorthText(outlook.prices)}</li>}
            </ul>
          )}
        </Card>
      )}
    </>
  );
}

type Today = NonNullable<NonNullable<Snapshot['savings']>['today']>;

/** What solar and the battery did to today's bill, in words ("a credit of £2.18", never "-£2.18"). */
function SavedToday({ today }: { today: Today }) {
  const money = (v: number) => formatMoney(v, today.currency!);
  const total = today.savedBySolarAndBattery;
  const battery = today.savedByBattery;
  const batteryWords = battery === null ? null : battery < 0 ? `the battery: ${savedOrCost(battery, money)}` : `${money(battery)} by the battery`;
  return (
    <>
      {total !== null && total < 0 ? (
        <>
          <strong>{money(-total)} more spent</strong> so far than without solar and battery
        </>
      ) : (
        <>
          <strong>{total === null ? '—' : money(total)}</strong> saved so far by solar and battery
        </>
      )}
      {batteryWords && ` (${batteryWords})`}. {paidInsteadOf(today.paid, today.paidWithoutSolar, money)}
    </>
  );
}
