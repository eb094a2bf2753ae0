import { z } from 'zod';

/**
 * The knowledge base's coverage by the question set (report.json `coverage`, written when the run knows the knowledge
 * base: the embedded engine's, or --kb beside a remote service). Computed by src/score/coverage.ts; the definitions
 * are in docs/metrics.md ("Coverage of the knowledge base").
 */

/** An entry as the coverage lists name it. */
export const CoverageRefSchema = z.object({
  sequence: z.number().int(),
  label: z.string().nullable(),
  /** Its `theme`, else the start of its answer (80 characters at most). */
  title: z.string(),
  /** Reachable only as a follow-up inside a dialogue: only a conversation's turn can test it. */
  dialogueOnly: z.literal(true).optional(),
});

/** One entry of the knowledge base with its counts: what merge adds up and rescore counts again. */
export const CoverageEntrySchema = CoverageRefSchema.extend({
  /** Answerable questions (and turns) whose expectations name it: it is tested when this is above 0. */
  questions: z.number().int(),
  /** Questions whose top-1 it was, at or above the floor. */
  top1: z.number().int(),
  /** Questions that returned it at or above the floor, first or not. */
  returned: z.number().int(),
  /** Questions that returned it below the floor (after a floor answer, or under the floor threshold the run knows). */
  belowFloor: z.number().int(),
});

export const CoverageSchema = z.object({
  /** The knowledge base, as it was given (the embedded engine's file, or --kb). */
  knowledgeBase: z.string(),
  /** The floor threshold answers were held to besides the service's floor answer: the embedded engine's, or rescore's --floor; null when unknown. */
  floor: z.number().nullable(),
  /** Entries in the knowledge base. */
  entries: z.number().int(),
  /** Entries at least one answerable question names. */
  tested: z.number().int(),
  /** tested / entries. */
  share: z.number().nullable(),
  /** Entries no answerable question names, in knowledge-base order. */
  untested: z.array(CoverageRefSchema),
  /** Entries no question got as its top-1 in this run (at or above the floor). */
  neverTop1: z.array(CoverageRefSchema),
  /** Entries the run returned, but only below the floor: never at or above it. */
  belowFloorOnly: z.array(CoverageRefSchema),
  /** Every entry with its counts, in knowledge-base order. */
  byEntry: z.array(CoverageEntrySchema),
});

export type CoverageRef = z.infer<typeof CoverageRefSchema>;
export type CoverageEntry = z.infer<typeof CoverageEntrySchema>;
export type Coverage = z.infer<typeof CoverageSchema>;
