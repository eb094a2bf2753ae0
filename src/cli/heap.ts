import { setFlagsFromString } from 'node:v8';

// Imported first by main.ts, so it runs before any other module of the command.
//
// V8 allocates an object straight in the old generation when most objects made at the same place in the code
// outlived a young-generation collection (allocation-site pretenuring). Streaming a million results through
// compare, trend or a run trips it for objects that die soon after, and the old generation then grows with
// garbage between full collections: `compare` of two runs of 1M questions peaked at 297-368 MB with it and at
// 259-286 MB without it, in less CPU time (BENCHMARKS.md (e)).
//
// The young generation starts at 1 MB a semi-space and doubles, up to 16 MB, whenever many of its objects survive a
// collection: a pass reading a million journal lines keeps it at its largest, 48 MB with the space it is copied to,
// most of it garbage. Kept at its first size (a growth factor of 1), scoring a 1M-question run peaks about 80 MB
// lower in the same time, and asking costs no more CPU (BENCHMARKS.md, issue 40). Unlike the maximum size, which V8
// reads once at start-up, the factor is read each time the space would grow, so it can be set here.
//
// The flags are set only where V8 is known to have them (Node 20-24: V8 11-13), because V8 prints "unrecognized
// flag" for one it lacks.
const v8Major = Number(process.versions.v8.split('.')[0]);
const known = v8Major >= 11 && v8Major <= 13;
if (known) {
  setFlagsFromString('--no-allocation-site-pretenuring');
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Once a run has asked everything, what is left (scoring, every report) reads the journal line by line: the old
 * generation then grows with the lines' garbage by V8's own factor (up to 4x what is live) between full collections,
 * and a 1M-question run peaked there. Grown by 20% instead, the peak of a 1M-question run is about 90 MB lower, for
 * about a tenth more time after the asking; during the asking the same setting costs a third more CPU, so it waits
 * until then (BENCHMARKS.md, issue 40).
 */
export function tightenHeap(): void {
  if (known) setFlagsFromString('--heap-growing-percent=20');
}
