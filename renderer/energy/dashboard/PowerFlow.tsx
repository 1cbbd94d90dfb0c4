import { formatPower } from '../../kit/format.js';
import type { Snapshot } from '../types.js';

type Dir = 'in' | 'out' | 'idle';
interface Node {
  key: 'solar' | 'grid' | 'battery' | 'home';
  label: string;
  watts: number | null;
  /** 'in' flows into the hub (a source), 'out' flows from it (a sink). */
  dir: Dir;
  verb: string;
  x: number;
  y: number;
}

const HUB = { x: 200, y: 130 };

function nodesOf(p: Snapshot['power']): Node[] {
  const solar = p.solar ?? null;
  const solarOn = (solar ?? 0) >= 50;
  return [
    { key: 'solar', label: 'Solar', watts: solar, dir: solarOn ? 'in' : 'idle', verb: solarOn ? 'Producing' : 'Idle', x: 200, y: 34 },
    {
      key: 'grid',
      label: 'Grid',
      watts: p.grid,
      dir: p.gridDirection === 'import' ? 'in' : p.gridDirection === 'export' ? 'out' : 'idle',
      verb: p.gridDirection === 'import' ? 'Importing' : p.gridDirection === 'export' ? 'Exporting' : 'Idle',
      x: 48,
      y: 130,
    },
    {
      key: 'battery',
      label: 'Battery',
      watts: p.battery,
      dir: p.batteryDirection === 'discharge' ? 'in' : p.batteryDirection === 'charge' ? 'out' : 'idle',
      verb: p.batteryDirection === 'charge' ? 'Charging' : p.batteryDirection === 'discharge' ? 'Discharging' : 'Idle',
      x: 352,
      y: 130,
    },
    { key: 'home', label: 'Home', watts: p.home, dir: (p.home ?? 0) > 0 ? 'out' : 'idle', verb: 'Using', x: 200, y: 226 },
  ];
}

/** One colour per node and direction: the grid is green throughout while exporting, red while importing. */
export function colorOf(n: Pick<Node, 'key' | 'dir'>): string {
  return `var(--${n.key === 'grid' && n.dir === 'out' ? 'grid-export' : n.key})`;
}

/** The power balance at a glance: a diagram whose arrows show direction and width shows size, plus the numbers. */
export function PowerFlow({ power }: { power: Snapshot['power'] }) {
  const nodes = nodesOf(power);
  const max = Math.max(1000, ...nodes.map((n) => Math.abs(n.watts ?? 0)));
  return (
    <div className="live">
      <div className="flow-layout">
      <svg viewBox="0 0 400 260" role="img" data-testid="flow-diagram" aria-label={nodes.map((n) => `${n.label} ${n.verb.toLowerCase()} ${formatPower(n.watts)}`).join(', ')}>
        <defs>
          {nodes.map((n) => (
            <marker key={n.key} id={`arrow-${n.key}`} viewBox="0 0 10 10" refX="5" refY="5" markerWidth="14" markerHeight="14" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" fill={colorOf(n)} />
            </marker>
          ))}
        </defs>
        {nodes.map((n) => {
          const width = n.dir === 'idle' ? 1.5 : 2 + (8 * Math.abs(n.watts ?? 0)) / max;
          const color = n.dir === 'idle' ? 'var(--border)' : colorOf(n);
          const [x1, y1, x2, y2] = n.dir === 'out' ? [HUB.x, HUB.y, n.x, n.y] : [n.x, n.y, HUB.x, HUB.y];
          // Stop short of the circles so the arrow head stays visible.
          const dx = x2 - x1;
          const dy = y2 - y1;
          const len = Math.hypot(dx, dy);
          const pad = 36;
          return (
            <line
              key={n.key}
              x1={x1 + (dx / len) * pad}
              y1={y1 + (dy / len) * pad}
              x2={x2 - (dx / len) * pad}
              y2={y2 - (dy / len) * pad}
              stroke={color}
              strokeWidth={width}
              strokeDasharray={n.dir === 'idle' ? '4 4' : undefined}
              markerEnd={n.dir === 'idle' ? undefined : `url(#arrow-${n.key})`}
              strokeLinecap="round"
            />
          );
        })}
        <circle cx={HUB.x} cy={HUB.y} r="8" fill="var(--muted)" />
        {nodes.map((n) => (
          <g key={n.key}>
            <circle cx={n.x} cy={n.y} r="30" fill="var(--surface-2)" stroke={colorOf(n)} strokeWidth="3" />
            <text x={n.x} y={n.y + 4} textAnchor="middle" fontSize="11" fill="var(--text)" fontWeight="600" textLength={n.label.length > 5 ? 46 : undefined} lengthAdjust="spacingAndGlyphs">
              {n.label}
            </text>
          </g>
        ))}
      </svg>
      <div className="flow">
        {nodes.map((n) => (
          <div key={n.key} className={`flow-node ${n.key}${n.key === 'grid' && n.dir === 'out' ? ' export' : ''}`}>
            <div className="stat-label">{n.label}</div>
            <div className="stat-value" data-testid={`power-${n.key}`}>
              {formatPower(n.watts)}
            </div>
            <div className="flow-dir" data-testid={`direction-${n.key}`}>
              {n.verb}
            </div>
            <div className="meter" aria-hidden="true" style={{ color: colorOf(n) }}>
              <span style={{ width: `${Math.min(100, (100 * Math.abs(n.watts ?? 0)) / max)}%` }} />
            </div>
          </div>
        ))}
      </div>
      </div>
      {(power.solarThirdParty ?? 0) > 0 || power.smartPort !== null || power.homeGeneral !== null ? (
        <p className="small muted">
          {power.solarNative !== null && <>Own PV {formatPower(power.solarNative)} · </>}
          {(power.solarThirdParty ?? 0) > 0 && <>Third-party PV {formatPower(power.solarThirdParty)} · </>}
          {power.homeGeneral !== null && <>General load {formatPower(power.homeGeneral)} · </>}
          {power.smartPort !== null && <>Smart loads {formatPower(power.smartPort)}</>}
        </p>
      ) : null}
    </div>
  );
}
