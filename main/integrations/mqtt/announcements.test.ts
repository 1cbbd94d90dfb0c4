import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { createAnnouncementDebounce } from './announcements.js';

describe('Home Assistant announcements', () => {
  it('a storm costs one republish at once and one when the few seconds are over, not one each', () => {
    const clock = createManualClock();
    let republished = 0;
    const d = createAnnouncementDebounce({ clock, republish: () => republished++ });
    for (let i = 0; i < 2000; i++) d.announced();
    expect(republished).toBe(1);
    clock.advance(4999);
    for (let i = 0; i < 2000; i++) d.announced();
    expect(republished).toBe(1);
    clock.advance(1);
    expect(republished).toBe(2);
    // A lone announcement a while later is answered at once.
    clock.advance(60_000);
    d.announced();
    expect(republished).toBe(3);
  });

  it('stops waiting when cancelled (the service stopped)', () => {
    const clock = createManualClock();
    let republished = 0;
    const d = createAnnouncementDebounce({ clock, republish: () => republished++ });
    d.announced();
    d.announced();
    d.cancel();
    clock.advance(60_000);
    expect(republished).toBe(1);
  });
});
