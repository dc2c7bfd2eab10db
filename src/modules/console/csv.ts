// CSV of the queue for the export: RFC 4180 quoting, and cells a spreadsheet would run as a
// formula (starting with =, +, -, @, a tab or a carriage return) neutralised with a leading
// apostrophe, whatever a member typed in a subject, a name or a category.
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: Array<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
