/** Electron entry (`npm run app`): the tray app. */
import { startShell } from './shell.js';

void startShell();
