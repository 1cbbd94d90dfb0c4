import { Card } from '../../kit/Card.js';
import { descriptorWords, formatPerKwh, priceExplainer } from './price-words.js';
import { PriceChart } from './PriceChart.js';
import type { Prices } from './types.js';

const SOURCE_NAMES: Record<Prices['source'], string> = { amber: 'Amber', octopus: 'Octopus Agile' };

/** Dashboard card: the current import and feed-in price with its descriptor, what it means, and the next hours. */
export function PriceNow({ prices, now }: { prices: Prices; now: number }) {
  const c = prices.current;
  const words = priceExplainer(prices, now);
  return (
    <Card title="Price now" id="price-now">
      <div data-testid="price-now" data-stale={prices.stale ? 'true' : 'false'}>
        {c ? (
          <dl className="pairs">
            <dt>Import</dt>
            <dd data-testid="price-import">
              <span className="stat-value">{formatPerKwh(c.importPerKwh, prices.currency)}</span>{' '}
              {c.descriptor && <span className={`price-tag ${c.descriptor}`} data-testid="price-descriptor">{descriptorWords(c.descriptor)}</span>}
            </dd>
            <dt>Feed-in</dt>
            <dd data-testid="price-feed-in">{c.feedInPerKwh === null ? 'tariff rate' : formatPerKwh(c.feedInPerKwh, prices.currency)}</dd>
          </dl>
        ) : null}
        {words.length > 0 && (
          <ul className="price-explainer" data-testid="price-explainer">
            {words.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
        <PriceChart points={prices.forecast} currency={prices.currency} />
        <p className="small muted">From {SOURCE_NAMES[prices.source]}.</p>
      </div>
    </Card>
  );
}
