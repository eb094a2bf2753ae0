import type { Argv } from 'yargs';
import { ConfigError } from '../errors.js';
import { numberOption, POINTS, SHARE } from '../util/numbers.js';
import type { ThresholdOptions } from '../score/metrics/thresholds.js';

/** How the recommended floor threshold is chosen, shared by `run` and `report`. */
export const thresholdOptions = <T>(y: Argv<T>) =>
  y
    .option('oos-share', {
      ...numberOption('oos-share', SHARE),
      group: 'Threshold advice:',
      describe: 'the share of live questions that are out of scope (0..1): recommend the floor with the best accuracy on such traffic',
    })
    .option('keep-accuracy', {
      ...numberOption('keep-accuracy', POINTS),
      group: 'Threshold advice:',
      describe: 'recommend the highest floor keeping in-scope accuracy within this many points of its best (e.g. 1)',
    })
    .check((argv) => {
      if (argv['oos-share'] !== undefined && argv['keep-accuracy'] !== undefined) throw new ConfigError('--oos-share and --keep-accuracy are two objectives: give one');
      return true;
    });

/** The threshold options given, or undefined for the default (F1). */
export function thresholdOptionsOf(a: { oosShare?: number | undefined; keepAccuracy?: number | undefined }): ThresholdOptions | undefined {
  if (a.oosShare !== undefined) return { objective: 'live-accuracy', oosShare: a.oosShare };
  if (a.keepAccuracy !== undefined) return { objective: 'keep-accuracy', maxAccuracyDrop: a.keepAccuracy / 100 };
  return undefined;
}
