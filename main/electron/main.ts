/** Electron entry (`npm run app`, the packaged app): the tray app. */
import { app, dialog } from 'electron';
import { startShell } from './shell.js';

startShell().catch((err: unknown) => {
  // A failure outside the services (they report their own in a dialog and keep the tray up).
  dialog.showErrorBox('Home LAN Bridge could not start', err instanceof Error ? (err.stack ?? err.message) : String(err));
  app.exit(1);
});
