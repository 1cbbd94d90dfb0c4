import type { ReactNode } from 'react';

/** A titled panel. The heading labels the region for screen readers. */
export function Card({ title, children, className = '', actions, id }: { title?: ReactNode; children: ReactNode; className?: string; actions?: ReactNode; id?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className={`card ${className}`} aria-labelledby={headingId} id={id}>
      {(title || actions) && (
        <div className="spread">
          {title && <h2 id={headingId}>{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
