import type { Key, ReactNode } from 'react';

export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The column's name shown beside each value where a table stacks its cells (table.records on small screens). */
  label?: string;
  className?: string;
}

interface DataTableProps<Row> {
  /** The table's accessible name. */
  caption: string;
  /** Shown above the table; otherwise read by screen readers only. */
  showCaption?: boolean;
  columns: readonly Column<Row>[];
  /** Undefined while there is nothing to show yet (loading, or the read failed): no rows, no empty note. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row, index: number) => Key;
  /** The one row shown when there are no rows. */
  empty?: ReactNode;
  className?: string;
}

/**
 * The app's table: a focusable wrapper that scrolls sideways on small screens instead of
 * breaking the page (keyboard users scroll it too), a caption, column headers, the rows and
 * the empty note.
 */
export function DataTable<Row>({ caption, showCaption = false, columns, rows, rowKey, empty, className }: DataTableProps<Row>) {
  return (
    <div className="table-wrap" tabIndex={0}>
      <table className={className}>
        <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th scope="col" key={index}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row, rowIndex) => (
            <tr key={rowKey(row, rowIndex)}>
              {columns.map((column, index) => (
                <td key={index} className={column.className} data-label={column.label}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
          {empty !== undefined && rows?.length === 0 && (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
