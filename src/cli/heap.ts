import { setFlagsFromString } from 'node:v8';

// Imported first by main.ts, so it runs before any other module of the command.
//
// V8 allocates an object straight in the old generation when most objects made at the same place in the code
// outlived a young-generation collection (allocation-site pretenuring). Streaming a million results through
// compare, trend or a run trips it for objects that die soon after, and the old generation then grows with
// garbage between full collections: `compare` of two runs of 1M questions peaked at 297-368 MB with it and at
// 259-286 MB without it, in less CPU time (BENCHMARKS.md (e)).
//
// The flag is set only where V8 is known to have it (Node 20-24: V8 11-13), because V8 prints "unrecognized flag" for
// one it lacks.
const v8Major = Number(process.versions.v8.split('.')[0]);
const known = v8Major >= 11 && v8Major <= 13;
if (known) setFlagsFromString('--no-allocation-site-pretenuring');

/**
 * Scoring and every report read the journal line by line, and V8's heap grows with the lines' garbage: the young
 * generation doubles up to 16 MB a semi-space (48 MB with the space it is copied to) and the old generation grows by
 * V8's own factor (up to 4x what is live) between full collections. Tightened, the young generation keeps its size (a
 * growth factor of 1) and the old one grows by 20%: a 1M-question run kept so from its start peaked at 163 MB instead
 * of 260-282 MB, but its asking cost about a third more CPU. So the job asks for it (JobIo.tightenHeap) from the start
 * of a large run, where memory is the limit, and otherwise once the asking is over (BENCHMARKS.md, issue 40). Both
 * settings are read each time the heap would grow, so they can be set while the program runs.
 */
export function tightenHeap(): void {
  if (!known) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=20');
}
