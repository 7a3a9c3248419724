/**
 * Writing the CSV files of Kasm's batch imports: quoting, and the user import's columns.
 */
import { BATCH_USER_COLUMNS, type BatchUserColumn, type BatchUserRow } from "./schemas/users";

/**
 * The CSV text of Kasm's user import for `rows`: a header with every column that some row uses
 * or `layout` asks for (in Kasm's order, then `group_1` ... as many as the row with most groups
 * needs, or `layout.groupColumns`), one line per row (see {@link csvValue} for quoting).
 */
export function usersCsv(rows: readonly BatchUserRow[], layout: { columns?: readonly BatchUserColumn[]; groupColumns?: number } = {}): string {
  const used = (column: BatchUserColumn) => column === "username" || layout.columns?.includes(column) || rows.some((row) => row[column] !== undefined);
  const columns = BATCH_USER_COLUMNS.filter(used);
  const groupColumns = rows.reduce((most, row) => Math.max(most, row.groups?.length ?? 0), layout.groupColumns ?? 0);
  const header = [...columns, ...Array.from({ length: groupColumns }, (_, i) => `group_${i + 1}`)];
  const lines = rows.map((row) => {
    const values = columns.map((column) => {
      const value = row[column];
      return value === undefined ? "" : String(value);
    });
    for (let i = 0; i < groupColumns; i++) values.push(row.groups?.[i] ?? "");
    return values.map(csvValue).join(",");
  });
  return `${[header.join(","), ...lines].join("\r\n")}\r\n`;
}

/** One CSV value: quoted when it holds a comma, a quote or a line break, or starts or ends with a space. */
export function csvValue(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
