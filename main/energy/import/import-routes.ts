import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { conflict, invalid } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { isOwnerRequest, requireOwner } from '../../core/owner-only.js';
import { parseInput } from '../../core/validate.js';
import type { LegacyImportReport } from '../history/legacy-import.js';
import type { Security } from '../security/gate.js';
import { IMPORT_CAPS, importFileProblem, plainReason } from '../../core/import-file.js';
import { checkDir, inspectSigenFolder } from './sigen-folder.js';
import { previewSigenImportOffThread, runSigenImport, type ImportTarget, type SigenResult } from './sigen-import.js';

/** POST /api/import and /api/import/preview: which program, and its folder on the bridge computer. */
export const importBody = z
  .object({
    from: z.literal('sigen-home-bridge', { error: 'must be "sigen-home-bridge" (the program whose data folder this is)' }),
    dir: z.string().trim().min(1, 'must be the path of a folder on the bridge computer').max(4096),
    historyFiles: z.array(z.string().trim().min(1).max(4096)).max(8).default([]),
  })
  .strict();

/** The import in progress or last finished (kept in memory until the next one). */
export type ImportJob =
  | { state: 'idle' }
  | { state: 'running'; from: 'sigen-home-bridge'; dir: string; startedAt: string; history: LegacyImportReport[] }
  | { state: 'done'; from: 'sigen-home-bridge'; dir: string; startedAt: string; finishedAt: string; result: SigenResult }
  | { state: 'failed'; from: 'sigen-home-bridge'; dir: string; startedAt: string; finishedAt: string; error: string };

/** Each `historyFiles` entry: an absolute path to an existing file. */
function checkFiles(files: string[]): string[] {
  return files.map((f, i) => {
    const field = `historyFiles.${i}`;
    if (!path.isAbsolute(f)) throw invalid(field, `must be an absolute path, got "${f}"`);
    // Its folder must exist; a missing file is reported by the preview. One that is there must be a
    // regular file within the cap (a device file or FIFO would never end).
    checkDir(path.dirname(f), field);
    const problem = importFileProblem(f, { maxBytes: IMPORT_CAPS.historyJson });
    if (problem && !/missing/.test(problem)) throw invalid(field, `${f} ${problem}`);
    return path.resolve(f);
  });
}

/** A history file's outcome without its path (what another device sees). */
const reportForGuest = (r: LegacyImportReport) => ({ status: r.status, progress: r.progress, imported: r.imported, skipped: r.skipped, unreadable: r.unreadable });

/**
 * The import as another device sees it: state, times and counts, never a path of the PC (the
 * folder, the history files) nor text read from its files.
 */
export function jobForGuest(job: ImportJob): Record<string, unknown> {
  if (job.state === 'idle') return { state: 'idle' };
  const base = { state: job.state, from: job.from, startedAt: job.startedAt };
  if (job.state === 'running') return { ...base, history: job.history.map(reportForGuest) };
  if (job.state === 'failed') return { ...base, finishedAt: job.finishedAt, error: 'The import failed: the reason is shown on the PC that started it.' };
  return { ...base, finishedAt: job.finishedAt, status: job.result.status, historyReports: job.result.historyReports.map(reportForGuest) };
}

/**
 * The import routes, behind the passcode gate and only for the owner (from the PC itself or with
 * a session; GET /api/import/status shows another device no paths). The folder is a path on the
 * bridge computer, given by its owner; it is read, never written. Settings, passcode and HomeKit identity are applied
 * before the answer (202); the history follows in the background (a worker), its progress on
 * GET /api/import/status. When the import brings a passcode, the caller gets a session token so it
 * stays unlocked (the old passcode locks the settings from then on).
 */
export function registerImportRoutes(app: FastifyInstance, deps: { security: Security; target: ImportTarget; logger: Logger; now: () => number }): { running(): Promise<void> | null } {
  const { security, target } = deps;
  const log = deps.logger.child({ component: 'import' });
  let job: ImportJob = { state: 'idle' };
  let running: Promise<void> | null = null;
  const iso = (t: number) => new Date(t).toISOString();
  // The folders are the PC's: only its owner imports from them (from the PC, or with a session).
  const gate = [security.requireSession, requireOwner(security.hasSession)];

  app.post('/api/import/preview', { preHandler: gate }, async (req) => {
    const body = parseInput(importBody, req.body, 'body');
    return previewSigenImportOffThread(body.dir, target, { extraHistoryFiles: checkFiles(body.historyFiles) });
  });

  app.post('/api/import', { preHandler: gate }, async (req, reply) => {
    const body = parseInput(importBody, req.body, 'body');
    if (running) throw conflict('import_running', 'An import is already running; follow it on GET /api/import/status.');
    const folder = inspectSigenFolder(body.dir);
    const extra = checkFiles(body.historyFiles);
    const startedAt = iso(deps.now());
    const hadPasscode = security.passcodes.isSet;
    job = { state: 'running', from: 'sigen-home-bridge', dir: folder.dir, startedAt, history: [] };
    log.info({ dir: folder.dir }, 'import from sigen-home-bridge started');
    // Everything up to the history import runs now, before the answer; the history in a worker.
    const work = runSigenImport(folder.dir, target, {
      extraHistoryFiles: extra,
      onProgress(reports) {
        if (job.state === 'running') job = { ...job, history: reports };
      },
    });
    running = work.then(
      (result) => {
        job = { state: 'done', from: 'sigen-home-bridge', dir: folder.dir, startedAt, finishedAt: iso(deps.now()), result };
        log.info({ status: result.status, message: result.message }, 'import from sigen-home-bridge finished');
      },
      (err: Error) => {
        // A plain reason: never a raw filesystem error (its text names paths and calls).
        job = { state: 'failed', from: 'sigen-home-bridge', dir: folder.dir, startedAt, finishedAt: iso(deps.now()), error: plainReason(err) };
        log.error({ err: err.message }, 'import from sigen-home-bridge failed');
      },
    );
    void running.finally(() => (running = null));
    const session = !hadPasscode && security.passcodes.isSet ? security.sessions.issue() : null;
    reply.code(202);
    return { ...job, ...(session ? { token: session.token, expiresAt: iso(session.expiresAt) } : {}) };
  });

  app.get('/api/import/status', { preHandler: security.requireSession }, async (req) => (isOwnerRequest(req, security.hasSession) ? job : jobForGuest(job)));

  return { running: () => running };
}
