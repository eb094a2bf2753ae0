import type { Coverage } from '../model/coverage.js';
import type { KbCoverageComparison } from './schema.js';

const side = (c: Coverage | undefined) => (c === undefined ? null : { knowledgeBase: c.knowledgeBase, entries: c.entries, tested: c.tested, share: c.share });

/** The lists name entries without their counts (see CoverageRefSchema). */
const ref = ({ sequence, label, title, dialogueOnly }: Coverage['byEntry'][number]) => ({ sequence, label, title, ...(dialogueOnly ? { dialogueOnly } : {}) });

/**
 * How the knowledge base's coverage changed from BASE to HEAD, entries matched by sequence number: which lost their
 * last test, which are newly tested, which HEAD's knowledge base added without a test. Undefined when neither report
 * has coverage; the lists are empty unless both do. Pure.
 */
export function compareCoverage(base: Coverage | undefined, head: Coverage | undefined): KbCoverageComparison | undefined {
  if (base === undefined && head === undefined) return undefined;
  const b = side(base);
  const h = side(head);
  const share = { base: b?.share ?? null, head: h?.share ?? null, delta: b?.share != null && h?.share != null ? h.share - b.share : null };
  if (base === undefined || head === undefined) return { base: b, head: h, share, lostLastTest: [], newlyTested: [], addedUntested: [] };
  const was = new Map(base.byEntry.map((e) => [e.sequence, e.questions > 0]));
  const lostLastTest = head.byEntry.filter((e) => e.questions === 0 && was.get(e.sequence) === true).map(ref);
  const newlyTested = head.byEntry.filter((e) => e.questions > 0 && was.get(e.sequence) !== true).map(ref);
  const addedUntested = head.byEntry.filter((e) => e.questions === 0 && !was.has(e.sequence)).map(ref);
  return { base: b, head: h, share, lostLastTest, newlyTested, addedUntested };
}
