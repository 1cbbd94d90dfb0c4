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
