import type { Clock } from '../../core/clock.js';
import { noHttpAnswer, OutboundRefused } from '../../core/outbound.js';
import type { FetchLike } from '../feature.js';
import type { ActiveAlert } from './engine.js';

/** Each webhook attempt gives up after this long. */
export const WEBHOOK_TIMEOUT_MS = 5000;
/** Waits before the 2nd, 3rd and 4th attempt; then the delivery is given up. */
export const WEBHOOK_BACKOFF_MS = [2000, 10_000, 30_000] as const;

/** The JSON body POSTed to a webhook (documented in docs/energy-insight.md). */
export interface WebhookBody {
  event: 'fired' | 'cleared' | 'test';
  /** ISO time of the transition. */
  at: string;
  source: 'home-lan-bridge/energy';
  alert: ActiveAlert;
}

export interface DeliveryResult {
  event: WebhookBody['event'];
  /** ISO time of the last attempt. */
  at: string;
  ok: boolean;
  /** HTTP status of the last answer, null when none came (refused, timed out). */
  status: number | null;
  error: string | null;
  attempts: number;
}

/**
 * One POST with a 5 s timeout. Never throws. The receiver's answer is never read (the result is
 * its status only); without an HTTP answer the error is the same words for a closed port, a silent
 * host and a service that does not speak HTTP, and `onDetail` gets the cause (for the log).
 */
export async function postOnce(
  fetchFn: FetchLike,
  url: string,
  body: WebhookBody,
  now: () => number,
  cancel?: AbortSignal,
  onDetail: (detail: string) => void = () => {},
): Promise<Omit<DeliveryResult, 'attempts'>> {
  try {
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'home-lan-bridge' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: cancel ? AbortSignal.any([AbortSignal.timeout(WEBHOOK_TIMEOUT_MS), cancel]) : AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    void res.body?.cancel().catch(() => {});
    const ok = res.status >= 200 && res.status < 300;
    return { event: body.event, at: new Date(now()).toISOString(), ok, status: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    let error: string;
    if (err instanceof OutboundRefused) error = err.message;
    else {
      try {
        error = noHttpAnswer(url);
      } catch {
        error = 'not a valid URL';
      }
      onDetail(e.name === 'TimeoutError' ? `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message));
    }
    return { event: body.event, at: new Date(now()).toISOString(), ok: false, status: null, error };
  }
}

/**
 * Delivers webhook bodies in order per rule, each with retries on the backoff above. Runs in the
 * background: `send` returns at once, so a slow receiver never holds up a poll.
 */
export class WebhookDispatcher {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly results = new Map<string, DeliveryResult>();
  private stopped = false;
  private readonly sleeping = new Set<() => void>();
  /** Aborts requests in flight on stop, so no socket outlives the service. */
  private readonly cancel = new AbortController();

  constructor(
    private readonly fetchFn: FetchLike,
    private readonly clock: Clock,
    private readonly onResult: (ruleId: string, r: DeliveryResult) => void = () => {},
    private readonly onDetail: (detail: string) => void = () => {},
  ) {}

  send(ruleId: string, url: string, body: WebhookBody): void {
    if (this.stopped) return;
    const prev = this.chains.get(ruleId) ?? Promise.resolve();
    const next = prev.then(() => this.deliver(ruleId, url, body));
    this.chains.set(ruleId, next);
    void next.finally(() => {
      if (this.chains.get(ruleId) === next) this.chains.delete(ruleId);
    });
  }

  lastResult(ruleId: string): DeliveryResult | null {
    return this.results.get(ruleId) ?? null;
  }

  /** Resolves when every queued delivery has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size) await Promise.all([...this.chains.values()]);
  }

  stop(): void {
    this.stopped = true;
    this.cancel.abort();
    for (const wake of this.sleeping) wake();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.sleeping.delete(wake);
        this.clock.clear(timer);
        resolve();
      };
      const timer = this.clock.setTimeout(wake, ms);
      timer.unref?.();
      this.sleeping.add(wake);
    });
  }

  private async deliver(ruleId: string, url: string, body: WebhookBody): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const r = { ...(await postOnce(this.fetchFn, url, body, () => this.clock.now(), this.cancel.signal, this.onDetail)), attempts: attempt };
      this.results.set(ruleId, r);
      this.onResult(ruleId, r);
      if (r.ok || this.stopped || attempt > WEBHOOK_BACKOFF_MS.length) return;
      await this.sleep(WEBHOOK_BACKOFF_MS[attempt - 1]!);
      if (this.stopped) return;
    }
  }
}
