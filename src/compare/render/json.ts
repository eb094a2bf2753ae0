import type { Comparison } from '../schema.js';

/** compare.json: the comparison as is, keys in a fixed order. */
export const renderCompareJson = (c: Comparison): string => `${JSON.stringify(c, null, 2)}\n`;
