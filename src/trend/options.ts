/** The defaults of trend's options, in a file of their own: the CLI's flags read them at start-up. */
export const TREND_DEFAULTS = { flakyFlips: 2 } as const;
