/** Plain-text tables for list commands (with --json the rows are printed as they are). */
export function table<T>(rows: T[], columns: Array<[header: string, cell: (row: T) => string]>): string {
  if (rows.length === 0) return '(none)\n';
  const cells = rows.map((row) => columns.map(([, cell]) => cell(row)));
  const widths = columns.map(([header], i) => Math.max(header.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!))).join('  ');
  return `${[line(columns.map(([h]) => h)), ...cells.map(line)].join('\n')}\n`;
}

/** "deleted workspace X: 2 pipelines, 3 lead sources, 10 leads, 0 quarantined, 1 scan". */
export function deletedLine(kind: string, view: { id: string; name: string; deleted: Record<string, number> }): string {
  const parts = Object.entries(view.deleted).map(([what, n]) => `${n} ${what}`);
  return `Deleted ${kind} "${view.name}" (${view.id}) with ${parts.join(', ')}.\n`;
}
