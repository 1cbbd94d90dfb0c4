import { isIP } from 'node:net';
import os from 'node:os';
import { Accessory } from 'hap-nodejs';
import { missingBindEntry } from '../../core/listen-check.js';

export const isLoopbackAddress = (a: string) => (isIP(a) === 4 && a.startsWith('127.')) || a === '::1';

/**
 * Checks a bind list before anything is published. Loopback addresses must belong to a loopback
 * interface that is up: the mDNS advertiser (ciao) resolves each address to its interface and,
 * finding none, silently falls back to advertising on every interface, which a loopback-only
 * setup (tests, demo) must never do. Returns a user-facing problem, or null when fine.
 */
export function bindProblem(bind: readonly string[], interfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces): string | null {
  const missing = missingBindEntry(bind, interfaces);
  return missing ? `homekit.bind: ${missing}` : null;
}

/** True when every bind entry is a loopback address (or the loopback interface): nothing reaches the LAN. */
export function loopbackOnly(bind: readonly string[], interfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces): boolean {
  if (bind.length === 0) return false;
  const nets = interfaces();
  return bind.every((b) => (isIP(b) ? isLoopbackAddress(b) : (nets[b] ?? []).length > 0 && (nets[b] ?? []).every((i) => i.internal)));
}

type ParseBind = (info: { bind?: string | string[] }) => { serverAddress?: string } & Record<string, unknown>;
let narrowed = false;

/**
 * hap-nodejs 1.x listens on 0.0.0.0 even when given one IP address to bind (it narrows only the
 * advertiser). HOMEKIT_BIND promises the bridge binds there, so when the list is exactly one IP
 * address the HAP server listens on that address only. Installed once; it only ever narrows.
 */
export function narrowServerBind(): void {
  if (narrowed) return;
  narrowed = true;
  const target = Accessory as unknown as { parseBindOption: ParseBind };
  const original = target.parseBindOption.bind(Accessory);
  target.parseBindOption = (info) => {
    const parsed = original(info);
    const entries = info.bind === undefined ? [] : Array.isArray(info.bind) ? info.bind : [info.bind];
    if (entries.length === 1 && isIP(entries[0]!)) parsed.serverAddress = entries[0];
    return parsed;
  };
}
