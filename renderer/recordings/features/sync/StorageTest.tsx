import { useState } from 'react';
import { messageOf, rec } from '../../api.js';
import { LockedWhy, useLocked } from '../../locked.js';

/** Binary units, as the server's message and `df -h` count them. */
function binaryBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} bytes` : `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${units[u]}`;
}

interface StorageResult {
  path: string;
  exists: boolean;
  directory: boolean;
  writable: boolean;
  free_bytes: number | null;
  problem: string | null;
  message: string;
}

/**
 * "Test this folder" beside the media folder: asks the service (it is the one that writes there)
 * whether the folder typed in the box exists, takes a file and how much space is free.
 */
export function StorageTest({ path }: { path: string }) {
  const [busy, setBusy] = useState(false);
  const locked = useLocked();
  const [result, setResult] = useState<StorageResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await rec.post<StorageResult>('/api/storage/test', path.trim() ? { path: path.trim() } : {}));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const ok = result && result.writable && !result.problem;
  return (
    <div className="storage-test" data-testid="storage-test">
      <button type="button" onClick={() => void run()} disabled={busy || locked === true} aria-describedby={locked ? 'storage-test-locked' : undefined}>
        {busy ? 'Testing…' : 'Test this folder'}
      </button>
      <LockedWhy id="storage-test-locked" locked={locked} what="test the folder" />
      {error && (
        <p className="error-text small" role="alert">
          {error}
        </p>
      )}
      {result && (
        <div role="status">
          <p className={ok ? 'small' : 'error-text small'} data-testid="storage-message">
            {result.message}
          </p>
          <dl className="pairs small">
            <dt>Exists</dt>
            <dd>{result.exists ? (result.directory ? 'yes, a folder' : 'yes, but not a folder') : 'no'}</dd>
            <dt>Writable</dt>
            <dd>{result.writable ? 'yes' : 'no'}</dd>
            <dt>Free space</dt>
            <dd>{result.free_bytes === null ? '—' : binaryBytes(result.free_bytes)}</dd>
          </dl>
        </div>
      )}
    </div>
  );
}
