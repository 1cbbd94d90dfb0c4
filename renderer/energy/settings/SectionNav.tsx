import { useState } from 'react';
import { humanize } from './schema.js';

/**
 * Jump links to every settings section. On a phone it is one sticky "Sections" button: tap it,
 * tap a section, and the page is there, without scrolling through the others.
 */
export function SectionNav({ groups }: { groups: string[] }) {
  const [open, setOpen] = useState(false);
  const jump = (g: string) => {
    setOpen(false);
    const el = document.getElementById(`settings-${g}`);
    el?.scrollIntoView({ block: 'start' });
    el?.focus({ preventScroll: true });
  };
  return (
    <nav aria-label="Settings sections" className="section-nav" data-testid="section-nav">
      <button type="button" className="section-nav-toggle" aria-expanded={open} aria-controls="section-nav-list" onClick={() => setOpen((o) => !o)}>
        Sections
      </button>
      <ul id="section-nav-list" className={open ? 'open' : undefined}>
        {groups.map((g) => (
          <li key={g}>
            <a
              href={`#settings-${g}`}
              onClick={(e) => {
                e.preventDefault();
                jump(g);
              }}
            >
              {humanize(g)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
