import path from 'node:path';
import { AppError } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import { registerAuditRoutes } from './audit-routes.js';
import type { EnergyFeatureModule, FeatureFactory } from '../feature.js';
import { AuditLog } from './audit-log.js';
import { BatteryController } from './controller.js';
import { ControlSavings } from './control-savings.js';
import { modeRequest } from './modes.js';
import { controlBlockOf, mqttCommands } from './mqtt.js';
import { controlBlock, controlEntities } from './published.js';
import { buildPlan, planStepAt, stepCovering } from './price-plan.js';
import { registerReserveRoutes } from './reserve.js';
import { controlSection } from './settings.js';

/**
 * Battery control (issue 44, docs/battery-control.md): off by default, owner only, guarded by the
 * controller's rails. Routes: GET /api/control (status), GET /api/control/plan (the price plan for
 * the next 24 h), GET /api/control/audit; POST /api/control/mode and POST /api/control/kill, which
 * need the owner (the PC itself or a passcode session).
 */
export const createControlFeature: FeatureFactory<typeof controlSection> = (ctx) => {
  const settings = () => ctx.settings().control;
  const audit = new AuditLog(path.join(ctx.dataDir, 'energy', 'control-audit.jsonl'));
  const plan = (at: number) => {
    const s = ctx.settings();
    const state = ctx.state.get();
    return buildPlan(ctx.prices?.() ?? null, at, {
      soc: state.battery.soc,
      capacityKwh: state.battery.ratedCapacityKwh,
      timeZone: s.general.timezone,
      minSoc: s.control.minSoc,
      ...s.control.plan,
    });
  };
  const controller = new BatteryController({
    clock: ctx.clock,
    logger: ctx.logger.child({ feature: 'control' }),
    settings,
    pollIntervalMs: () => ctx.settings().polling.intervalMs,
    connect: () => {
      if (!ctx.gatewayConnect) throw new AppError(503, 'no_gateway_link', 'No gateway link to write through');
      const g = ctx.settings().gateway;
      return ctx.gatewayConnect({ host: g.host, port: g.port, timeoutMs: g.timeoutMs });
    },
    audit,
    stateFile: path.join(ctx.dataDir, 'energy', 'control-state.json'),
    planStep: (at) => planStepAt(plan(at), at),
  });
  const owner = ctx.ownerOnly ? [ctx.gate, ctx.ownerOnly] : [ctx.gate];
  // What following the price saved today (control-savings.ts), from the polls and the steps acted on.
  const savings = new ControlSavings(() => ctx.settings().general.timezone, () => ctx.settings().control.staleAfterPolls * ctx.settings().polling.intervalMs);
  // Polls whose work (the plan's writes) the controller has not finished: `busy` in the status.
  let working = 0;

  return {
    name: 'control',
    // Home Assistant's select, numbers and stop button (control/mqtt.ts: the owner rule, then the routes' path).
    commands: mqttCommands({ clock: ctx.clock, settings, controller, audit }),
    snapshot: () => ({ control: controlBlockOf(controller.status(), settings()) }),

    onPoll(next, at) {
      const good = next.connected && next.lastUpdated === at;
      if (good) savings.record(at, next.power.battery, next.power.grid);
      controller.onPoll(next, at);
      working++;
      void controller.idle().finally(() => working--);
      const status = controller.status();
      if (!good || !status.enabled || status.dryRun || status.mode.mode !== 'schedule' || status.backedOff || status.stale) return;
      const step = stepCovering(plan(at), at);
      savings.setStep(at, step ? { charge: step.action === 'charge', peak: step.peak === true, importPerKwh: ctx.prices?.()?.at(at)?.importPerKwh ?? null } : null);
    },
    async stop() {
      await controller.idle();
    },
    routes(app) {
      app.get('/api/control', async () => {
        const status = controller.status();
        // The next step of the price plan while the battery follows it (a mode's own end is `end`).
        const next = status.mode.mode === 'schedule' ? plan(ctx.clock.now()).steps.find((s) => Date.parse(s.start) > ctx.clock.now()) : undefined;
        return { ...status, busy: working > 0, nextStep: next ? { start: next.start, end: next.end, action: next.action, reason: next.reason } : null, today: savings.today(ctx.clock.now()), currency: ctx.settings().general.currency };
      });
      app.get('/api/control/plan', async () => plan(ctx.clock.now()));
      registerAuditRoutes(app, audit);
      registerReserveRoutes(app, { controller, firmware: () => ctx.state.get().gateway.firmware, owner, now: () => ctx.clock.now() });
      app.post('/api/control/mode', { preHandler: owner }, async (req) => controller.setMode(parseInput(modeRequest, req.body, 'body'), 'owner'));
      app.post('/api/control/kill', { preHandler: owner }, async () => controller.kill('owner'));
    },
  };
};

export const controlFeature: EnergyFeatureModule<typeof controlSection, typeof controlBlock> = { name: 'control', settings: [controlSection], snapshot: controlBlock, entities: controlEntities, create: createControlFeature };
