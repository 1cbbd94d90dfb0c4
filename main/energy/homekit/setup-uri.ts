/**
 * The HomeKit setup payload (`X-HM://` + 9 base-36 digits + setup id), as printed in QR codes:
 * bits 0-26 the setup code, bit 28 "supports IP", bits 31-38 the accessory category.
 */
export function setupUri(pin: string, category: number, setupId: string): string {
  const code = Number(pin.replace(/-/g, ''));
  const IP_FLAG = 1 << 28;
  const payload = BigInt(category) * 2n ** 31n + BigInt(code) + BigInt(IP_FLAG);
  return `X-HM://${payload.toString(36).toUpperCase().padStart(9, '0')}${setupId}`;
}

/** Decodes a setup URI (used by the pairing tests and handy for support). */
export function parseSetupUri(uri: string): { pin: string; category: number; ip: boolean; setupId: string } | null {
  const m = /^X-HM:\/\/([0-9A-Z]{9})([0-9A-Z]{4})$/.exec(uri);
  if (!m) return null;
  const payload = BigInt(parseInt(m[1]!, 36));
  const code = Number(payload & 0x7ffffffn).toString().padStart(8, '0');
  return {
    pin: `${code.slice(0, 3)}-${code.slice(3, 5)}-${code.slice(5)}`,
    category: Number((payload >> 31n) & 0xffn),
    ip: ((payload >> 28n) & 1n) === 1n,
    setupId: m[2]!,
  };
}
