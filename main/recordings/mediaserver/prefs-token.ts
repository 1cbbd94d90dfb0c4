import fs from 'node:fs';

/** Largest preferences file read (a real one is a few KiB). */
export const MAX_PREFS_BYTES = 256 * 1024;

export class TokenDetectionError extends Error {}

/** A token is short and plain: anything else in the file is not used. */
const TOKEN_RE = /^[A-Za-z0-9_-]{8,256}$/;

/**
 * The media server's token: attribute `PlexOnlineToken` on the root `<Preferences>` element of its
 * preferences file. The file is read up to MAX_PREFS_BYTES; errors name the path, never the token.
 */
export function readTokenFromPrefs(file: string): string {
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw new TokenDetectionError(`${file} is not a file`);
      if (st.size > MAX_PREFS_BYTES) throw new TokenDetectionError(`${file} is larger than ${MAX_PREFS_BYTES} bytes: not a preferences file`);
      const buf = Buffer.alloc(st.size);
      const n = fs.readSync(fd, buf, 0, st.size, 0);
      text = buf.subarray(0, n).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    if (err instanceof TokenDetectionError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new TokenDetectionError(
      code === 'ENOENT' ? `no preferences file at ${file}: set media_server_prefs_path (or MEDIA_SERVER_PREFS_PATH) to the media server's Preferences.xml` : `cannot read ${file} (${code ?? 'error'})`,
    );
  }
  const root = /<Preferences\b([^>]*)>?/.exec(text.replace(/^\uFEFF/, ''));
  if (!root) throw new TokenDetectionError(`${file} has no <Preferences> element`);
  const attr = /\sPlexOnlineToken\s*=\s*("([^"]*)"|'([^']*)')/.exec(root[1] ?? '');
  const token = attr ? (attr[2] ?? attr[3] ?? '') : '';
  if (!token) throw new TokenDetectionError(`${file} has no token (PlexOnlineToken): sign the media server in to its account first`);
  if (!TOKEN_RE.test(token)) throw new TokenDetectionError(`${file} has a token in an unexpected format: not used`);
  return token;
}
