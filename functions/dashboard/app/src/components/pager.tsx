import { useState } from 'react';

/**
 * Cursor pages: the cursors of the pages before this one are kept, so Previous goes back
 * without the API having to page backwards. A new filter starts again from the first page.
 */
export function useCursorPages(filterKey: string) {
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[] }>({ key: filterKey, cursors: [undefined] });
  const cursors = state.key === filterKey ? state.cursors : [undefined];
  return {
    cursor: cursors[cursors.length - 1],
    page: cursors.length,
    next: (cursor: string) => setState({ key: filterKey, cursors: [...cursors, cursor] }),
    previous: () => setState({ key: filterKey, cursors: cursors.slice(0, -1) }),
  };
}

interface PagerProps {
  pages: ReturnType<typeof useCursorPages>;
  nextCursor: string | null | undefined;
  total?: number | undefined;
  label: string;
}

export function Pager({ pages, nextCursor, total, label }: PagerProps) {
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={pages.previous} disabled={pages.page === 1}>
        Previous
      </button>
      <span>
        Page {pages.page}
        {total !== undefined ? ` · ${total} in all` : ''}
      </span>
      <button type="button" onClick={() => nextCursor && pages.next(nextCursor)} disabled={!nextCursor}>
        Next
      </button>
    </nav>
  );
}
