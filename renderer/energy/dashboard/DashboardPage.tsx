import { Link } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { DemoClockBadge } from '../DemoClock.js';
import { useLive, useNow } from '../use-live.js';
import { BatteryGauge } from './BatteryGauge.js';
import { ConnectionStatus } from './ConnectionStatus.js';
import { Devices } from './Devices.js';
import { EnergyToday } from './EnergyToday.js';
import { PowerFlow } from './PowerFlow.js';
import { Alerts, Weather, WeatherBadge } from './WeatherAndAlerts.js';
import { SavingsCards } from '../savings/SavingsCards.js';
import { PriceNow } from '../prices/PriceNow.js';

/** The live dashboard: every SSE event refreshes it in place. */
export function DashboardPage() {
  const { snapshot, state, streamOpen, error } = useLive();
  const now = useNow();

  if (!snapshot) {
    return (
      <>
        <h1>Dashboard</h1>
        {error ? <Banner kind="error">{error}</Banner> : <p className="muted">Loading live data…</p>}
      </>
    );
  }
  // A locked bridge blanks the gateway host for visitors without a session and says it did (hostHidden).
  const notConfigured = state !== null && state.gateway.host === '' && !state.gateway.hostHidden && !snapshot.connected;
  const stale = !snapshot.connected;
  return (
    <div className={stale ? 'stale' : undefined} data-testid="dashboard" data-stale={stale ? 'true' : 'false'}>
      <h1>
        Dashboard {snapshot.weather && <WeatherBadge weather={snapshot.weather} unit={snapshot.units.temperature} />} <DemoClockBadge />
      </h1>
      {notConfigured ? (
        <Banner kind="info" testId="setup-cta">
          <strong>No gateway is configured yet.</strong> <Link href="/setup" className="button primary">Set up the gateway</Link> to find it on your network and start live readings.
        </Banner>
      ) : (
        <ConnectionStatus snapshot={snapshot} state={state} streamOpen={streamOpen} now={now} />
      )}
      {error && <Banner kind="error">{error}</Banner>}
      {state?.storageError && (
        <Banner kind="warn" testId="storage-error">
          <strong>History is not being saved</strong> (since {new Date(state.storageError.since).toLocaleString()}): {state.storageError.message}
        </Banner>
      )}
      <div className="card-grid">
        <Card title="Power flow" className="wide" id="flow">
          <PowerFlow power={snapshot.power} />
        </Card>
        <Card title="Battery" id="battery">
          <BatteryGauge battery={snapshot.battery} power={snapshot.power.battery} outlook={snapshot.outlook} />
        </Card>
        <Card title="Today" id="today">
          <EnergyToday energy={snapshot.energy} tariff={snapshot.tariff} />
        </Card>
        {snapshot.prices && <PriceNow prices={snapshot.prices} now={now} />}
        <SavingsCards snapshot={snapshot} />
        {snapshot.weather && (
          <Card title="Weather" id="weather">
            <Weather weather={snapshot.weather} unit={snapshot.units.temperature} />
          </Card>
        )}
        <Card title={`Alerts${snapshot.alerts.length ? ` (${snapshot.alerts.length})` : ''}`} id="alerts">
          <Alerts alerts={snapshot.alerts} />
        </Card>
        <Card title="Inverters and smart loads" className="wide" id="devices">
          <Devices devices={snapshot.devices} />
        </Card>
      </div>
    </div>
  );
}
