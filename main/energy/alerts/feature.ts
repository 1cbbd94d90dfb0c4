import { z } from 'zod';
import type { Timer } from '../../core/clock.js';
import { invalid } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import type { EnergyFeatureModule, FeatureFactory } from '../feature.js';
import { PROBE_RATE, registerProbeRoutes } from '../security/probe-limit.js';
import { AlertEngine, type ActiveAlert, type AlertTransition } from './engine.js';
import { postOnce, WebhookDispatcher, type WebhookBody } from './webhook.js';
import { alertsSection } from './settings.js';
import { alertsBlock, alertsEntities, alertsGauges, type AlertsBlock } from './published.js';
import { alertsLive, alertsOf } from './live-fields.js';

/** Rules are also re-evaluated on this timer, so a settle time ends on time between polls. */
export const ALERT_TICK_MS = 1000;

const isHttp = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

const testBody = z
  .object({
    url: z.string().trim().max(2048).refine(isHttp, 'must be an http(s) URL').optional(),
    id: z.string().max(64).optional(),
  })
  .strict();

const sameAlerts = (a: readonly ActiveAlert[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Alerts: evaluates the rules on every poll and every second, publishes the active alerts in the
 * live state (so `/api/state`, the snapshot and SSE carry them) and POSTs each fire and clear to
 * the rule's webhook in the background.
 */
export const createAlertsFeature: FeatureFactory<typeof alertsSection> = (ctx) => {
  const engine = new AlertEngine();
  // A webhook goes where the owner pointed it (any unicast address), through the outbound gate.
  const webhookFetch = ctx.outbound.fetcher({ purpose: 'webhook' });
  const logDetail = (detail: string) => ctx.logger.info({ detail }, 'webhook got no HTTP answer');
  const webhooks = new WebhookDispatcher(
    webhookFetch,
    ctx.clock,
    (id, r) => {
      if (!r.ok) ctx.logger.warn({ alert: id, status: r.status, error: r.error, attempts: r.attempts }, 'alert webhook failed');
    },
    logDetail,
  );
  let timer: Timer | null = null;

  const notify = (transitions: AlertTransition[]) => {
    for (const t of transitions) {
      ctx.logger.info({ alert: t.rule.id, event: t.event }, `alert ${t.event}: ${t.alert.message}`);
      if (t.rule.webhookUrl) webhooks.send(t.rule.id, t.rule.webhookUrl, { event: t.event, at: new Date(t.at).toISOString(), source: 'home-lan-bridge/energy', alert: t.alert });
    }
  };

  const evaluate = (state: Parameters<AlertEngine['evaluate']>[1], at: number) => {
    const s = ctx.settings();
    const rules = s.alerts;
    // The live price now (Amber, Octopus) for the price triggers; none with the fixed rates.
    const book = ctx.prices?.() ?? null;
    notify(engine.evaluate(rules, state, at, book ? { current: book.at(at), currency: s.general.currency } : undefined));
    return engine.active(rules);
  };

  return {
    name: 'alerts',
    snapshot() {
      return { alerts: [...alertsOf(ctx.state.get())] } satisfies AlertsBlock;
    },
    start() {
      timer = ctx.clock.setInterval(() => {
        try {
          const state = ctx.state.get();
          if (!ctx.settings().alerts.length && !alertsOf(state).length) return;
          const alerts = evaluate(state, ctx.clock.now());
          if (!sameAlerts(alerts, alertsOf(state))) ctx.state.update({ alerts });
        } catch (err) {
          ctx.logger.error({ err }, 'alert evaluation failed');
        }
      }, ALERT_TICK_MS);
      timer.unref?.();
    },
    stop() {
      if (timer) ctx.clock.clear(timer);
      timer = null;
      webhooks.stop();
    },
    onPoll(next, at) {
      return { alerts: evaluate(next, at) };
    },
    onSettings() {
      const state = ctx.state.get();
      const alerts = evaluate(state, ctx.clock.now());
      if (!sameAlerts(alerts, alertsOf(state))) ctx.state.update({ alerts });
    },
    routes(app) {
      // Per rule: whether it is active or settling, and the last webhook delivery (settings page).
      app.get('/api/alerts', async () => ({
        rules: ctx.settings().alerts.map((r) => ({ id: r.id, ...engine.status(r.id), lastDelivery: webhooks.lastResult(r.id) })),
      }));

      // Sends a sample body; the answer is the receiver's status only, never its body. Rate-limited per client.
      registerProbeRoutes(app, 'test alerts', (scope) => {
      scope.post('/api/test/alert', { preHandler: ctx.gate, config: { rateLimit: PROBE_RATE } }, async (req) => {
        const body = parseInput(testBody, req.body ?? {}, 'body');
        const rules = ctx.settings().alerts;
        const rule = body.id !== undefined ? rules.find((r) => r.id === body.id) : undefined;
        if (body.id !== undefined && !rule) throw invalid('id', `no alert rule with id "${body.id}"`);
        const url = body.url ?? rule?.webhookUrl ?? rules.find((r) => r.webhookUrl)?.webhookUrl ?? '';
        if (!url) throw invalid('url', 'give a webhook URL or configure one on an alert rule');
        const now = ctx.clock.now();
        const sample: WebhookBody = {
          event: 'test',
          at: new Date(now).toISOString(),
          source: 'home-lan-bridge/energy',
          alert: {
            id: rule?.id ?? 'test',
            name: rule?.name ?? 'Test alert',
            trigger: rule?.trigger ?? 'batterySoc',
            message: 'This is a test alert from the energy bridge',
            condition: { value: rule?.trigger ?? 'batterySoc', comparison: rule?.condition ?? 'atOrBelow', threshold: rule?.threshold ?? 20, unit: '%', reading: null },
            since: new Date(now).toISOString(),
          },
        };
        const r = await postOnce(webhookFetch, url, sample, () => ctx.clock.now(), undefined, logDetail);
        return { url, ...r, attempts: 1 };
      });
      });
    },
  };
};

/** Alert rules: their settings section and their feature. */
export const alertsFeature: EnergyFeatureModule<typeof alertsSection, typeof alertsBlock, typeof alertsLive> = { name: 'alerts', settings: [alertsSection], snapshot: alertsBlock, live: alertsLive, entities: alertsEntities, gauges: alertsGauges, create: createAlertsFeature };
