// A text cell a spreadsheet would read as a formula (starts with = + - @, a tab, a line break, or their full-width
// forms ＝ ＋ － ＠, which some spreadsheets take for the same) is written with a leading `'`, so Excel, LibreOffice
// and Sheets show it as text (OWASP "CSV injection"). answer-eval reads such a cell back without it: a question set
// that `sample` wrote, or that a spreadsheet saved, asks `=SUM(A1)` as the user wrote it, not `'=SUM(A1)`.
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
const PROTECTED = /^'[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/** `text` as a CSV cell a spreadsheet shows as text (see above). */
export const safeCell = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** A CSV cell as the value it stands for: a cell safeCell protected loses its `'` (see above). */
export const cellValue = (cell: string): string => (PROTECTED.test(cell) ? cell.slice(1) : cell);
