import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Fixed height of every row, px. */
  rowHeight: number;
  /** Rows rendered above and below the visible window. */
  overscan?: number;
  keyOf: (item: T) => string;
  renderRow: (item: T, index: number) => ReactNode;
  /** The column header row, kept visible above the scrolling rows. */
  header?: ReactNode;
  label: string;
  className?: string;
  testId?: string;
  empty?: ReactNode;
  /**
   * `self` (default): the rows scroll in their own box under a fixed header. `page`: the list is as
   * tall as its rows and the page itself scrolls (phones: no scroll box inside the scrolling page).
   */
  scroll?: 'self' | 'page';
}

/**
 * A table of fixed-height rows that renders only the rows in view (plus `overscan`), so 10,000 rows
 * scroll as smoothly as 10. The scroller is its own focusable region (arrow keys and Page Up/Down
 * scroll it); ARIA table roles keep rows and cells readable by screen readers.
 */
export function VirtualList<T>({ items, rowHeight, overscan = 6, keyOf, renderRow, header, label, className = '', testId, empty, scroll = 'self' }: VirtualListProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const frame = useRef(0);

  const pageScroll = scroll === 'page';
  // Page mode: the window scrolls; the part of the list in view is measured from its position.
  useEffect(() => {
    if (!pageScroll) return;
    const update = () => {
      const el = scroller.current;
      if (!el) return;
      setScrollTop(Math.max(0, -el.getBoundingClientRect().top));
      setViewport(window.innerHeight || 600);
    };
    const onWindowScroll = () => {
      if (frame.current) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = 0;
        update();
      });
    };
    update();
    window.addEventListener('scroll', onWindowScroll, { passive: true });
    window.addEventListener('resize', onWindowScroll);
    return () => {
      window.removeEventListener('scroll', onWindowScroll);
      window.removeEventListener('resize', onWindowScroll);
    };
  }, [pageScroll]);

  useEffect(() => {
    const el = scroller.current;
    if (!el || pageScroll) return;
    const measure = () => setViewport(el.clientHeight || 600);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [pageScroll]);

  // A shorter list (filters) must not leave the window scrolled past its end.
  const total = items.length * rowHeight;
  useEffect(() => {
    const el = scroller.current;
    if (el && !pageScroll && el.scrollTop > Math.max(0, total - el.clientHeight)) {
      el.scrollTop = Math.max(0, total - el.clientHeight);
      setScrollTop(el.scrollTop);
    }
  }, [total]);

  const onScroll = () => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setScrollTop(scroller.current?.scrollTop ?? 0);
    });
  };
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i]!;
    rows.push(
      <div key={keyOf(item)} role="row" aria-rowindex={i + 2} className="vrow" style={{ transform: `translateY(${i * rowHeight}px)`, height: rowHeight }}>
        {renderRow(item, i)}
      </div>,
    );
  }

  return (
    <div role="table" aria-label={label} aria-rowcount={items.length + 1} className={`vtable ${className}`} data-testid={testId}>
      {header && (
        <div role="rowgroup" className="vhead">
          <div role="row" aria-rowindex={1}>
            {header}
          </div>
        </div>
      )}
      <div
        ref={scroller}
        className={pageScroll ? 'vscroll page' : 'vscroll'}
        onScroll={pageScroll ? undefined : onScroll}
        tabIndex={pageScroll ? undefined : 0}
        role="rowgroup"
        aria-label={`${label}, ${items.length} rows`}
      >
        {items.length === 0 ? empty : <div className="vspace" style={{ height: total }}>{rows}</div>}
      </div>
    </div>
  );
}
