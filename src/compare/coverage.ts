import type { ReportHead } from '../model/source.js';
import type { Comparison, Unmeasured } from './schema.js';

/**
 * Whether the questions BASE holds and HEAD lacks (`removed`) were measured by neither run rather than removed from
 * the dataset: HEAD is one shard of its dataset, a run that stopped early, or holds fewer questions of the very
 * dataset BASE ran (the same sha256). Removed questions of another dataset are a pull request's edit. Pure.
 */
export function unmeasuredOf(base: ReportHead, head: ReportHead, removed: number): Unmeasured | undefined {
  if (removed === 0) return undefined;
  if (head.run.shard) return { questions: removed, why: 'shard' };
  if (head.run.status === 'partial') return { questions: removed, why: 'partial' };
  if (head.run.dataset.sha256 === base.run.dataset.sha256) return { questions: removed, why: 'missing' };
  return undefined;
}

/** How many questions HEAD holds: every one is common, added or changed. */
const headQuestions = (c: Comparison): number => c.counts.common + c.counts.added + c.counts.changed;

/** What HEAD did not measure, why, and what to do, in a sentence; undefined when it measured what BASE did. */
export function unmeasuredText(c: Comparison): string | undefined {
  const u = c.unmeasured;
  if (u === undefined) return undefined;
  const head = `HEAD (${c.head.file})`;
  switch (u.why) {
    case 'shard': {
      const s = c.head.shard;
      return (
        `${head} is shard ${s ? `${s.index}/${s.count}` : '?'} of its dataset: ${u.questions} of the questions BASE measured are in its other shards, not measured here (not removed); ` +
        'merge the shards first (answer-eval merge) and compare the merged report'
      );
    }
    case 'partial':
      return (
        `${head} is a PARTIAL run (it stopped after ${headQuestions(c)} of its ${c.head.dataset.questions} questions): ${u.questions} of the questions BASE measured were not measured (not removed); ` +
        'finish it (answer-eval run --resume <its directory>), then compare'
      );
    case 'missing':
      return (
        `${head} holds ${headQuestions(c)} of the ${c.counts.common + c.counts.removed + c.counts.changed} questions BASE measured with the same dataset (sha256 ${c.head.dataset.sha256.slice(0, 12)}): ` +
        `${u.questions} were not measured (not removed); compare a run of the whole dataset`
      );
  }
}
