/**
 * The preload bridge: the pages are plain web pages served by the services and work the same in
 * any browser, so the app exposes only what a browser cannot tell: that it runs in the tray app.
 */
import { contextBridge } from 'electron';

const desktop = Object.freeze({ isDesktopApp: true as const, platform: process.platform });

contextBridge.exposeInMainWorld('desktop', desktop);
