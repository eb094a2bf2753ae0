/** The regression gates of --fail-on (src/gate/gates.ts judges them); a file of its own, read by the CLI's flags at start-up. */
export type FailOn = 'regression' | 'significant-regression';
export const FAIL_ON: readonly FailOn[] = ['regression', 'significant-regression'];
