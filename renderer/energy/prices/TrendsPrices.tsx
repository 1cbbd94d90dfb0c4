import { Card } from '../../kit/Card.js';
import { useLive } from '../use-live.js';
import { IntervalCost } from './IntervalCost.js';
import { PriceChart } from './PriceChart.js';

/** Trends with a live price source: the next day's price forecast and today's cost interval by interval. */
export function TrendsPrices() {
  const { snapshot } = useLive();
  const prices = snapshot?.prices;
  if (!prices) return null;
  return (
    <>
      <Card title="Price forecast" id="price-forecast">
        <PriceChart points={prices.forecast} currency={prices.currency} hours={24} testId="trends-price-chart" />
      </Card>
      <Card title="Today's cost by interval" id="interval-cost">
        <IntervalCost />
      </Card>
    </>
  );
}
