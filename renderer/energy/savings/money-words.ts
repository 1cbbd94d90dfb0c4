/**
 * Money that can be negative, in words: a page never says "Paid -£2.18". `money` formats a positive
 * amount in the tariff's currency (kit/format's formatMoney, bound to it).
 */
type Money = (v: number) => string;

/** "You paid £1.06 instead of £8.49." or, below zero, "You earned a credit of £2.18 instead of paying £8.49." */
export function paidInsteadOf(paid: number | null, without: number | null, money: Money): string {
  if (paid === null || without === null) return '';
  const instead = without < 0 ? `instead of earning a credit of ${money(-without)}` : `instead of paying ${money(without)}`;
  if (paid < 0) return `You earned a credit of ${money(-paid)} ${instead}.`;
  return `You paid ${money(paid)} ${instead.replace('instead of paying', 'instead of')}.`;
}

/** "£3.10 saved" or, below zero, "£0.06 more spent" (what solar or the battery changed). */
export function savedOrCost(v: number | null, money: Money): string {
  if (v === null) return '—';
  return v < 0 ? `${money(-v)} more spent` : `${money(v)} saved`;
}

export interface SelfSufficiencyDay {
  selfSufficiencyPct: number | null;
  paid: number | null;
  importKwh?: number;
  supplyCharge?: number | null;
}

/**
 * The self-sufficiency beside what was paid, so the two never seem to disagree: "100%" only when
 * nothing came from the grid (99.96% with a little import reads 99.9%), and a bill on such a day is
 * named for what it is, the daily supply charge.
 */
export function selfSufficiencyText(day: SelfSufficiencyDay, money: Money): string {
  const pct = day.selfSufficiencyPct;
  if (pct === null) return 'Self-sufficiency —.';
  const imported = day.importKwh ?? null;
  const none = imported !== null && imported < 0.0005;
  const shown = none ? 100 : Math.min(Math.floor(pct * 10) / 10, 99.9);
  const supply = day.supplyCharge ?? 0;
  const paid = day.paid;
  if (none) {
    let text = 'Self-sufficiency 100%: the home took no power from the grid today.';
    if (paid !== null && paid > 0.005 && supply > 0) {
      const credits = supply - paid;
      text += ` The ${money(paid)} paid is the daily supply charge${credits > 0.005 ? ` (${money(supply)}, less ${money(credits)} earned by exports)` : ''}.`;
    }
    return text;
  }
  const grid = imported === null ? '' : `: ${imported.toFixed(2)} kWh came from the grid today`;
  let text = `Self-sufficiency ${shown}%${grid}.`;
  if (paid !== null && paid > 0.005 && supply > 0) text += ` What was paid includes the daily supply charge of ${money(supply)}, due with or without grid power.`;
  return text;
}
