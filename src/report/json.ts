import type { Report } from './schema.js';

/** report.json: keys in a fixed order, two-space indent, so two runs diff cleanly. */
export const renderJson = (report: Report): string => `${JSON.stringify(report, null, 2)}\n`;
