import { describe, expect, it } from 'vitest';
import { createManualClock } from '../core/clock.js';
import { createProgressRegistry, createRateMeter, downloadProgress, formatEta, formatRate, startScanTicker } from './progress.js';

describe('progress registry', () => {
  it('is empty after a start and returns null for unknown ids', () => {
    const reg = createProgressRegistry(createManualClock());
    expect(reg.size()).toBe(0);
    expect(reg.get('1')).toBeNull();
  });

  it('keeps startedAt across updates of one phase and clamps percent', () => {
    const clock = createManualClock(1000);
    const reg = createProgressRegistry(clock);
    reg.set('1', { phase: 'downloading', percent: 5 });
    clock.advance(250);
    const e = reg.set('1', { phase: 'downloading', percent: 140, detail: '12.0 MB/s', etaSeconds: 3, etaLabel: '3s' });
    expect(e).toEqual({ phase: 'downloading', percent: 100, detail: '12.0 MB/s', etaSeconds: 3, etaLabel: '3s', startedAt: 1000, updatedAt: 1250 });
    expect(reg.set('1', { phase: 'verifying' }).startedAt).toBe(1250);
  });

  it('treats an entry not updated for more than 30 s as absent and deletes it on read', () => {
    const clock = createManualClock(0);
    const reg = createProgressRegistry(clock);
    reg.set('1', { phase: 'scanning', percent: null, detail: 'elapsed 0:10' });
    clock.advance(30_000); // spec: PROGRESS_STALE_MS is 30 seconds
    expect(reg.get('1')).not.toBeNull();
    clock.advance(1);
    expect(reg.get('1')).toBeNull();
    expect(reg.size()).toBe(0);
    reg.set('2', { phase: 'downloading', percent: 1 });
    clock.advance(30_001); // spec: stale after more than 30 s
    expect(reg.snapshot().size).toBe(0);
    expect(reg.size()).toBe(0);
  });

  it('removes an entry on completion', () => {
    const reg = createProgressRegistry(createManualClock());
    reg.set('1', { phase: 'downloading', percent: 50 });
    reg.clear('1');
    expect(reg.get('1')).toBeNull();
  });

  it('formats ETA and rate for display', () => {
    expect(formatEta(3725)).toBe('1h 02m');
    expect(formatEta(245)).toBe('4m 05s');
    expect(formatEta(12.4)).toBe('12s');
    expect(formatRate(12_345_678)).toBe('12.3 MB/s');
    expect(formatRate(2_500_000_000)).toBe('2.50 GB/s');
  });
});

describe('download rate and stall', () => {
  const MB = 1e6;
  it('shows the rate of the last few seconds, not the average since the start', () => {
    const meter = createRateMeter();
    let t = 0;
    let bytes = 0;
    // 20 s at 10 MB/s, then the box slows to 1 MB/s.
    for (; t <= 20_000; t += 250, bytes += 2.5 * MB) downloadProgress(meter, t, bytes, 1000 * MB);
    let p = downloadProgress(meter, t, bytes, 1000 * MB);
    expect(p.detail).toBe('10.0 MB/s');
    for (let i = 0; i < 24; i++, t += 250, bytes += 0.25 * MB) p = downloadProgress(meter, t, bytes, 1000 * MB);
    // 6 s later the shown rate is the new one (the average since the start would still say ~8 MB/s).
    expect(p.detail).toBe('1.0 MB/s');
    expect(p.etaLabel).toMatch(/^\d+m \d{2}s$/);
  });

  it('shows "stalled" once no byte has arrived for 10 s, and recovers when bytes flow again', () => {
    const meter = createRateMeter();
    let t = 0;
    for (let i = 0; i <= 20; i++, t += 250) downloadProgress(meter, t, i * 1000, 100_000);
    const stuckAt = t - 250;
    let p = downloadProgress(meter, stuckAt + 9_000, 20_000, 100_000);
    expect(p.detail ?? 'no rate').not.toMatch(/stalled/);
    p = downloadProgress(meter, stuckAt + 10_000, 20_000, 100_000);
    expect(p).toMatchObject({ phase: 'downloading', percent: 20, detail: 'stalled: no data for 10 s', etaSeconds: null, etaLabel: null });
    p = downloadProgress(meter, stuckAt + 25_000, 20_000, 100_000);
    expect(p.detail).toBe('stalled: no data for 25 s');
    p = downloadProgress(meter, stuckAt + 25_250, 30_000, 100_000);
    expect(p.detail).toMatch(/B\/s$/);
  });
});

describe('scan ticker (the spec: every second, 0.5 realtime factor, capped at 99)', () => {
  it('moves the percent once a second: a 100 s recording is expected to scan in 50 s', () => {
    const clock = createManualClock();
    const reg = createProgressRegistry(clock);
    const stop = startScanTicker(reg, clock, '7', 100);
    expect(reg.get('7')).toMatchObject({ phase: 'scanning', percent: 0 });
    clock.advance(999);
    expect(reg.get('7')!.percent).toBe(0);
    clock.advance(1);
    expect(reg.get('7')!.percent).toBeCloseTo(2, 5); // 1 s of 50 s
    clock.advance(24_000);
    expect(reg.get('7')!.percent).toBeCloseTo(50, 5);
    clock.advance(25_000);
    expect(reg.get('7')!.percent).toBe(99); // never 100 while scanning
    clock.advance(60_000);
    expect(reg.get('7')!.percent).toBe(99); // holds on overrun
    stop();
    clock.advance(5_000);
    expect(clock.pending()).toBe(0);
  });

  it('shows no percent and the elapsed time when the duration is unknown', () => {
    const clock = createManualClock();
    const reg = createProgressRegistry(clock);
    const stop = startScanTicker(reg, clock, '8', null);
    clock.advance(1000);
    expect(reg.get('8')).toMatchObject({ phase: 'scanning', percent: null, detail: '1s elapsed' });
    clock.advance(64_000);
    expect(reg.get('8')).toMatchObject({ percent: null, detail: '1m 05s elapsed' });
    stop();
  });
});
