import { useEffect, useState, type ReactNode } from 'react';

export interface PageSection {
  /** Also the address: `/settings#<id>` opens this section. */
  id: string;
  label: string;
  /** A short "how it works" for a householder, shown above the section's fields. */
  explainer?: ReactNode;
  render: () => ReactNode;
}

function hashId(): string {
  return decodeURIComponent(location.hash.replace(/^#/, ''));
}

/**
 * A long settings page as one section at a time: a list of sections (a "Sections" button on a
 * phone) and the open one below it with its explainer; the others stay mounted, hidden. The open section is in the address
 * (`#tariff`), so Back, a bookmark and a link from another page open the right one.
 */
export function SectionedPage({ sections, label = 'Settings sections' }: { sections: readonly PageSection[]; label?: string }) {
  const pick = (id: string) => (sections.some((s) => s.id === id) ? id : (sections[0]?.id ?? ''));
  const [open, setOpen] = useState(() => pick(hashId()));
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    const update = () => setOpen(pick(hashId()));
    // Back and Forward between sections are popstate (the entries are pushState's), a typed #hash is hashchange.
    window.addEventListener('hashchange', update);
    window.addEventListener('popstate', update);
    update();
    return () => {
      window.removeEventListener('hashchange', update);
      window.removeEventListener('popstate', update);
    };
  }, [sections.map((s) => s.id).join(',')]);

  const go = (id: string) => {
    setMenuOpen(false);
    if (hashId() !== id) history.pushState(null, '', `#${id}`);
    setOpen(id);
    requestAnimationFrame(() => {
      const panel = document.getElementById(`section-${id}`);
      panel?.focus({ preventScroll: true });
      panel?.scrollIntoView({ block: 'start' });
    });
  };
  const current = sections.find((s) => s.id === open);
  return (
    <div className="sectioned">
      <nav aria-label={label} className="section-nav" data-testid="section-nav">
        <button type="button" className="section-nav-toggle" aria-expanded={menuOpen} aria-controls="section-nav-list" onClick={() => setMenuOpen((o) => !o)}>
          Sections{current ? `: ${current.label}` : ''}
        </button>
        <ul id="section-nav-list" className={menuOpen ? 'open' : undefined}>
          {sections.map((s) => (
            <li key={s.id}>
              <a
                href={`#${s.id}`}
                aria-current={s.id === open ? 'page' : undefined}
                onClick={(e) => {
                  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                  e.preventDefault();
                  go(s.id);
                }}
              >
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {sections.map((s) => (
        // Every section stays mounted (hidden when closed), so an unsaved edit survives a look at another one.
        <section key={s.id} id={`section-${s.id}`} tabIndex={-1} aria-label={s.label} className="section-panel" hidden={s.id !== open} data-testid={s.id === open ? 'open-section' : undefined}>
          {s.explainer && (
            <div className="explainer" data-testid={`explainer-${s.id}`}>
              <h2 className="explainer-title">How it works</h2>
              {s.explainer}
            </div>
          )}
          {s.render()}
        </section>
      ))}
    </div>
  );
}

/** A disabled control's reason, beside it and tied to it, so nobody is left guessing why a button does nothing. */
export function WhyDisabled({ id, why }: { id: string; why: string | null }) {
  if (!why) return null;
  return (
    <span id={id} className="why-disabled small" data-testid="why-disabled">
      {why}
    </span>
  );
}
