import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RecordingsApp } from './RecordingsApp.js';
import '../theme.css';
import './recordings.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RecordingsApp />
  </StrictMode>,
);
