import { randomBytes } from 'node:crypto';
import type { RequestSettings } from '../../client/request.js';
import { Secrets } from '../../client/secrets/secrets.js';
import { TextKnowledge } from '../../client/text-reply.js';
import { suppliedSecrets, tooShortWarnings } from '../../client/secrets/supplied.js';
import { answerEndpoint } from '../../client/url.js';
import { readAliases } from '../../dataset/aliases.js';
import { itemsOf } from '../../dataset/read.js';
import { inShard } from '../../dataset/shard.js';
import type { DatasetSource } from '../../dataset/source.js';
import { loadKnowledgeBase } from '../../engine/kb.js';
import type { DatasetItem } from '../../model/question.js';
import type { CoverageBase } from '../../score/coverage.js';
import type { EntryInfo } from '../../score/metrics/entries.js';
import { inPages } from '../../util/pages.js';
import { checkRun } from '../check.js';
import type { DatasetFacts, Resolved } from '../head.js';
import { journalPath } from '../journal.js';
import { coverageRefsOf, entriesOf } from '../knowledge-base.js';
import type { RunOptions } from '../options.js';
import { PriorResults } from '../prior.js';
import { SecretSightings } from '../secret-sightings.js';
import { settle } from '../settle.js';
import { datasetStop, endOnError, type OpenedDatasets } from '../stop-reasons.js';
import { checkBaseUrl } from '../target.js';
import { kindOf } from '../kinds.js';
import type { Planning, Work } from '../work.js';
import { Judge } from './judge.js';

/**
 * Questions read from the dataset at a time while asking. Reading a page holds up the replies that arrive meanwhile (their
 * latency grows, their slots wait): 1,024 rows held them up to 20 ms, taking 2% off the questions a second at 50 ms
 * latency (bench b); 128 rows keep it to a few ms and still read in bursts (see inPages).
 */
const PAGE = 128;

/** A run as planned: what it asks, where and how, and what it found in the dataset and the journal. */
export interface Plan {
  readonly o: Resolved;
  /** Every secret the user gave, masked in whatever the service sends back and in every stop reason. */
  readonly secrets: Secrets;
  readonly endpoint: URL;
  readonly settings: RequestSettings;
  readonly judge: Judge;
  /** The journal resumed: its results, each checked against its question before it is taken. */
  readonly prior: PriorResults | undefined;
  readonly source: DatasetSource;
  readonly dataset: DatasetFacts;
  /** Questions of the run (its shard's; turns included). */
  readonly total: number;
  /** Askings the journal lacks: to make now. */
  readonly toAsk: number;
  /** The run's items, kept from the check when they fit in memory: else the dataset is read again while asking. */
  readonly items?: readonly DatasetItem[];
  /** The knowledge base's entries, for the scoring. */
  readonly knowledgeBase: EntryInfo[] | undefined;
  /** The knowledge base the question set's coverage is measured against (with the aliases and the engine's floor). */
  readonly coverage: CoverageBase | undefined;
  /** The knowledge base's entries by their text, to recover the entry of a text reply (--output text). */
  readonly knowledge?: TextKnowledge;
  /** A fresh name per run (a resumed run is a new one), in the user name of each conversation without its own. */
  readonly runName: string;
}

/**
 * Stage 1, read and plan: the options (a resumed run's from its journal), the secrets, the knowledge base, and the
 * dataset checked in one streaming pass (see checkRun), the journal's results looked up, the shard and the repeats
 * counted. Every problem is found here, before anything is sent.
 */
export async function planRun(options: RunOptions, datasets: OpenedDatasets): Promise<Plan> {
  const { o, journal } = await settle(options);
  // every secret the user gave, masked in whatever the service sends back; those too short to be, said now
  const supplied = suppliedSecrets({ agentCode: o.agentCode, baseUrl: o.baseUrl });
  for (const warning of tooShortWarnings(supplied)) o.onWarning?.(warning);
  const secrets = new Secrets(supplied);
  const sightings = new SecretSightings(supplied);
  const endpoint = answerEndpoint(checkBaseUrl(o.baseUrl).baseUrl); // a ConfigError names the --base-url as typed
  const aliases = o.aliases === undefined ? undefined : await readAliases(o.aliases);
  const judge = new Judge(o.language, aliases);
  const prior = journal && new PriorResults(journal, journalPath(o.journalDir!), o.rerun === 'errors', judge.journaled);
  // read once: its entries for the scoring, what expectations may name for the check before the first request
  // (the embedded engine's comes loaded: openTarget read it for the engine)
  const kb = typeof o.knowledgeBase === 'string' ? await loadKnowledgeBase(o.knowledgeBase) : o.knowledgeBase;
  if (kb) sightings.knowledgeBase(kb);
  const settings: RequestSettings = {
    agent: o.agent,
    language: o.language,
    guest: o.guest,
    forceSubscription: o.forceSubscription,
    ...(o.askForMetadata !== undefined ? { askForMetadata: o.askForMetadata } : {}),
    ...(o.usingRepeatingAnswers !== undefined ? { usingRepeatingAnswers: o.usingRepeatingAnswers } : {}),
    output: o.output,
    ...(o.username !== undefined ? { username: o.username } : {}),
  };
  const runName = randomBytes(4).toString('hex');
  const source = await datasets.open(o.dataset, o.encoding);
  const checked = await checkRun(source, { o, settings, sightings, kb, aliases, prior, runName, mine: mineOf(o) });
  const knowledge = kb && new TextKnowledge(kb.entries);
  // the embedded engine's floor is known: its answers are held to it (a remote service's floor shows only as its floor answer)
  const coverage = kb && { knowledgeBase: kb.file, entries: coverageRefsOf(kb), aliases, floor: o.engine?.floorThreshold };
  return { o, secrets, endpoint, settings, judge, prior, source, runName, knowledgeBase: kb && entriesOf(kb), coverage, ...(knowledge ? { knowledge } : {}), ...checked };
}

/** Whether an item is the run's: every item, or those of its shard. */
const mineOf = (o: Resolved) => (item: DatasetItem): boolean => o.shard === undefined || inShard(item.id, o.shard);

/**
 * Pass 2: the planned work, once for each asking of --repeat (so the askings of a question are spread over the run).
 * What the journal holds is kept (`keep`) instead of asked. The items the check kept are planned from memory (what is
 * asked is what was checked, whatever happens to the file since); a set too large to keep is read again as a stream,
 * a page at a time, and a dataset that changed since the check stops the run (`stop`): nothing more is read, what was
 * asked stays.
 */
export function plannedWork(plan: Plan, keep: Planning['keep'], stop: (reason: Error) => void): Iterable<Work> | AsyncIterable<Work> {
  const planning: Planning = { prior: plan.prior, keep };
  if (plan.items) return fromMemory(plan.items, plan.o.repeat, planning);
  const { o, source } = plan;
  const changed = (error: unknown): void => stop(datasetStop(error, o.journalDir, o.resumeDir ?? o.journalDir));
  return fromStream(() => inPages(endOnError(itemsOf(source), changed), PAGE), o.repeat, mineOf(o), planning);
}

function* fromMemory(items: readonly DatasetItem[], repeat: number, planning: Planning): Generator<Work> {
  for (let k = 0; k < repeat; k++) {
    const plan = planner(k, planning);
    for (const item of items) {
      const work = plan(item);
      if (work !== undefined) yield work;
    }
  }
}

async function* fromStream(read: () => AsyncIterable<DatasetItem>, repeat: number, mine: (item: DatasetItem) => boolean, planning: Planning): AsyncGenerator<Work> {
  for (let k = 0; k < repeat; k++) {
    const plan = planner(k, planning);
    for await (const item of read()) {
      const work = mine(item) ? plan(item) : undefined;
      if (work !== undefined) yield work;
    }
  }
}

/** Asking `k` of each item in turn, at its index in the run's results: its work, or undefined when the journal holds it. */
function planner(k: number, planning: Planning): (item: DatasetItem) => Work | undefined {
  let index = 0;
  return (item) => {
    const kind = kindOf(item);
    const work = kind.plan(item, index, k, planning);
    index += kind.slots(item);
    return work;
  };
}
