/** A yargs `coerce` that keeps the value as typed: it marks the option as a path (see pathOption). */
const pathArg = (value: string): string => value;

/**
 * A path option's settings, spread into a yargs option: a string, marked as a path, so that a config file gives it
 * relative to its own directory (src/config/). Nothing else changes: the value is what was typed.
 */
export const pathOption = { type: 'string', coerce: pathArg } as const;

/** True for the `coerce` of a pathOption. */
export const isPathArg = (coerce: unknown): boolean => coerce === pathArg;
