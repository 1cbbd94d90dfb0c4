import { createHash } from 'node:crypto';

/** A stable short id for one service on this computer, from its data folder (the same every start). */
export function installId(service: 'energy' | 'recordings', dataDir: string): string {
  return `hlb_${service}_${createHash('sha256').update(`${service}:${dataDir}`).digest('hex').slice(0, 10)}`;
}
