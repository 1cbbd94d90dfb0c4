import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerServiceWorker } from '../kit/offline.js';
import { RecordingsApp } from './RecordingsApp.js';
import '../theme.css';
import './recordings.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RecordingsApp />
  </StrictMode>,
);

registerServiceWorker();
