import path from 'node:path';
import { z } from 'zod';

/** Validators more than one feature's settings use. */
export const absolutePath = z.string().min(1).max(1024).refine((p) => path.isAbsolute(p), 'must be an absolute path');
export const httpUrlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^https?$/ })]);
