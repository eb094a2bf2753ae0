import { setFlagsFromString } from 'node:v8';

// Imported first by main.ts, so it runs before any other module of the command.
//
// V8 allocates an object straight in the old generation when most objects made at the same place in the code
// outlived a young-generation collection (allocation-site pretenuring). Streaming a million results through
// compare, trend or a run trips it for objects that die soon after, and the old generation then grows with
// garbage between full collections: `compare` of two runs of 1M questions peaked at 297-368 MB with it and at
// 259-286 MB without it, in less CPU time (BENCHMARKS.md (e)). The flag is set only where V8 is known to have it
// (Node 20-24: V8 11-13), because V8 prints "unrecognized flag" for one it lacks.
const v8Major = Number(process.versions.v8.split('.')[0]);
if (v8Major >= 11 && v8Major <= 13) setFlagsFromString('--no-allocation-site-pretenuring');
