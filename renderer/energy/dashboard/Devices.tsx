import { formatKwh, formatPower } from '../../kit/format.js';
import type { InverterDevice, SmartLoadDevice, Snapshot } from '../types.js';

const fixed = (v: number | null, d: number) => (v === null ? '—' : v.toFixed(d));

function Inverter({ inv }: { inv: InverterDevice }) {
  return (
    <div>
      <h3>
        {inv.model} <span className="muted small">· {inv.serial}</span>
      </h3>
      <p className="small">
        Status <strong>{inv.status ?? 'unknown'}</strong> · output {formatPower(inv.activePower)} · solar {formatPower(inv.solarPower)} · {fixed(inv.temperature, 1)} °C
      </p>
      {inv.strings.length > 0 && (
        <div className="table-scroll">
          <table>
            <caption className="muted small" style={{ textAlign: 'left' }}>
              PV strings
            </caption>
            <thead>
              <tr>
                <th scope="col">String</th>
                <th scope="col" className="num">
                  Voltage
                </th>
                <th scope="col" className="num">
                  Current
                </th>
                <th scope="col" className="num">
                  Power
                </th>
              </tr>
            </thead>
            <tbody>
              {inv.strings.map((s) => (
                <tr key={s.index}>
                  <th scope="row">{s.name}</th>
                  <td className="num">{fixed(s.voltage, 1)} V</td>
                  <td className="num">{fixed(s.current, 2)} A</td>
                  <td className="num">{formatPower(s.power)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function SmartLoads({ loads }: { loads: SmartLoadDevice[] }) {
  return (
    <div className="table-scroll">
      <h3>Smart loads</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Load</th>
            <th scope="col" className="num">
              Power
            </th>
            <th scope="col" className="num">
              Lifetime
            </th>
          </tr>
        </thead>
        <tbody>
          {loads.map((l) => (
            <tr key={l.index}>
              <th scope="row">{l.name}</th>
              <td className="num">{formatPower(l.power)}</td>
              <td className="num">{formatKwh(l.lifetimeEnergy, 1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Per-inverter strings and per-slot smart loads; the plant may not list any. */
export function Devices({ devices }: { devices: Snapshot['devices'] }) {
  const inverters = devices.filter((d): d is InverterDevice => d.type === 'inverter');
  const loads = devices.filter((d): d is SmartLoadDevice => d.type === 'smartLoad');
  if (devices.length === 0) return <p className="muted">The gateway has not listed any inverters or smart loads.</p>;
  return (
    <div className="live card-grid">
      {inverters.map((inv) => (
        <Inverter key={inv.serial || inv.unitId} inv={inv} />
      ))}
      {loads.length > 0 && <SmartLoads loads={loads} />}
    </div>
  );
}
