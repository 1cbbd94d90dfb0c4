import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoRoot } from '../core/paths.js';
import { snapshotSchema } from './published.js';

const published = path.join(repoRoot, 'docs', 'snapshot.schema.json');
const generate = () => JSON.stringify(z.toJSONSchema(snapshotSchema, { target: 'draft-2020-12' }), null, 2) + '\n';

describe('published snapshot JSON Schema', () => {
  it('docs/snapshot.schema.json is the schema the code validates with (UPDATE_SCHEMA=1 rewrites it)', () => {
    if (process.env.UPDATE_SCHEMA) fs.writeFileSync(published, generate());
    expect(fs.readFileSync(published, 'utf8')).toBe(generate());
  });
});
