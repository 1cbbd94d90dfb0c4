import type { Session, WebContents } from 'electron';

/** Only the services' own origins may be shown in app windows. */
export function isAllowedUrl(url: string, origins: readonly string[]): boolean {
  try {
    return origins.includes(new URL(url).origin);
  } catch {
    return false;
  }
}

/** Deny every permission request (camera, notifications, geolocation…): the pages need none. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * Navigation and window.open are denied except to the app's origins; links elsewhere open in the
 * system browser instead of inside the app.
 */
export function hardenContents(contents: WebContents, origins: () => readonly string[], openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedUrl(url, origins())) {
      event.preventDefault();
      if (/^https?:/.test(url)) openExternal(url);
    }
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url) && !isAllowedUrl(url, origins())) openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
