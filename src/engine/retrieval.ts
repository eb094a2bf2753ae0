import { createTermMaker, splitWords, type AnalyzerOptions } from './analyzer.js';
import { createBm25, type Bm25Index } from './bm25.js';
import { trainClassifier, type Classifier } from './classifier.js';
import { fitFeatures, type Analyzed, type FeatureSpace } from './features.js';
import { createCorrector, type Corrector } from './fuzzy.js';
import type { KbEntry, KnowledgeBase } from './kb.js';

/** One entry proposed for a question, with its score on the 0-100 scale (see docs/engine.md). */
export interface Ranked {
  entry: KbEntry;
  score: number;
}

export interface RetrievalOptions {
  /** Weight of the answer text (and theme) against the examples. @default 0.5 */
  answerWeight?: number;
  /** Weight of the classifier's probability added to the BM25 match (0: BM25 only, and no character channel). @default 1 */
  classifierWeight?: number;
  /** Read a word the knowledge base does not have as its nearest word one edit away (fuzzy.ts). @default true */
  fuzzy?: boolean;
  /** How questions and examples are split into terms (the follow-ups of a dialogue step keep stop words and numbers' shape). */
  analyzer?: AnalyzerOptions;
}

export interface Retriever {
  /** Entries ranked best first (at most `limit`), for a question in `language`. Pure and synchronous. */
  answer(question: string, language: string, limit?: number): Ranked[];
  /** Languages the knowledge base has entries in. */
  languages: ReadonlySet<string>;
}

// One document per entry holds all its examples, so term frequency carries the vote of the
// examples; a large k keeps that vote from saturating. Tuned on CLINC150 val (docs/engine.md).
const BM25 = { k: 10, b: 0.7, d: 0 };
/** Entries the classifier ranks highest are candidates even when BM25 did not find them (a question all misspelt). */
const CLASSIFIER_CANDIDATES = 3;
/**
 * Where 50 sits on the scale when the classifier adds its probability (x = sqrt(ratio) + p): at x = 0.55, so that at
 * the default floor and suggestion threshold (50) the sample set answers and refuses at least as many questions right
 * as with the plain classifier, and CLINC150 val refuses as many out-of-scope questions (docs/engine.md).
 */
const CLASSIFIER_MIDPOINT = 0.55;
/** The language of the shard that questions in a language without entries search: no stemmer, no stop words. */
const NEUTRAL = 'und';

interface Shard {
  language: string;
  analyze: (text: string) => Analyzed;
  index: Bm25Index;
  entries: KbEntry[];
  docFreq: Map<string, number>;
  model: { space: FeatureSpace; classifier: Classifier } | undefined;
  classifierWeight: number;
}

function buildShard(entries: KbEntry[], language: string, o: Required<Omit<RetrievalOptions, 'analyzer'>> & { analyzer: AnalyzerOptions }): Shard {
  const split = (text: string): string[] => splitWords(text, language);
  const exampleWords = entries.map((entry) => entry.examples.map(split));
  const answerWords = entries.map((entry) => split(`${entry.answer} ${entry.theme ?? ''}`));
  const correct: Corrector | undefined = o.fuzzy ? createCorrector([...exampleWords.flat(2), ...answerWords.flat()]) : undefined;
  const terms = createTermMaker(language, o.analyzer);
  const analyze = (text: string): Analyzed => {
    const words = correct ? split(text).map(correct) : split(text);
    return { words, terms: terms(words) };
  };
  const docFreq = new Map<string, number>();
  const analyzed = exampleWords.map((list) => list.map((words) => ({ words, terms: terms(words) })));
  const docs = entries.map((_, id) => {
    const examples = analyzed[id]!.flatMap((a) => a.terms);
    const answer = terms(answerWords[id]!);
    for (const term of new Set([...examples, ...answer])) docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
    return [examples, answer];
  });
  // one document per entry, two fields: all its examples (weight 1) and its answer and theme
  const index = createBm25(docs, [1, o.answerWeight], BM25);
  let model: Shard['model'];
  if (o.classifierWeight > 0) {
    const labels = analyzed.flatMap((list, entry) => list.map(() => entry));
    const { space, vectors } = fitFeatures(analyzed.flat());
    // each example's key: a hash of its entry's sequence number and its text (see trainClassifier)
    const keys = entries.flatMap((entry) => entry.examples.map((text) => fnv1a(`${entry.sequenceNumber}\0${text}`)));
    const classifier = trainClassifier(vectors, labels, entries.length, space.size, space.wordFeatures, keys);
    if (classifier) model = { space, classifier };
  }
  return { language, analyze, index, entries, docFreq, model, classifierWeight: o.classifierWeight };
}

/**
 * The best score a question could get: each of its terms found once in a document of average
 * length. Unknown words weigh most, so a question full of them scores low.
 */
function ceiling(terms: string[], shard: Shard): number {
  const n = shard.entries.length;
  let sum = 0;
  for (const term of terms) {
    const df = shard.docFreq.get(term) ?? 0;
    sum += Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
  return sum * terms.length; // a document's BM25 is multiplied by the number of query terms it matched
}

/**
 * ratio (score / ceiling) and the classifier's weighted probability → 0-100. sqrt undoes BM25's
 * matched-terms multiplier; x / (x + midpoint) keeps the scale open at the top (frequent terms in many examples
 * push the ratio above 1) and monotonic, and puts 50 at x = midpoint. Without the classifier (midpoint 0.5): ratio
 * 0.04 → 28.6, 0.25 → 50, 1 → 66.7, 4 → 80.
 */
export function toScale(ratio: number, weightedProbability = 0, midpoint = 0.5): number {
  const x = Math.sqrt(Math.max(0, ratio)) + weightedProbability;
  return Math.round((1000 * x) / (x + midpoint)) / 10;
}

function rank(shard: Shard, question: string, limit: number): Ranked[] {
  const analyzed = shard.analyze(question);
  const terms = [...new Set(analyzed.terms)];
  const p = shard.model?.classifier.probabilities(shard.model.space.vector(analyzed));
  if (!terms.length && !p) return [];
  const top = ceiling(terms, shard);
  const known = terms.filter((term) => shard.docFreq.has(term)); // unknown terms only lower the ceiling
  const ratios = new Map<number, number>();
  for (const hit of shard.index.search(known)) ratios.set(hit.id, hit.score / top);
  if (!p) return [...ratios].slice(0, limit).map(([id, ratio]) => ({ entry: shard.entries[id]!, score: toScale(ratio) }));
  // Every entry BM25 found is a candidate, and the classifier's best few; ranked by sqrt(ratio) + weight·p.
  for (const id of topIndexes(p, CLASSIFIER_CANDIDATES)) if (!ratios.has(id)) ratios.set(id, 0);
  const ranked = [...ratios].map(([id, ratio]) => ({ id, ratio, x: Math.sqrt(ratio) + shard.classifierWeight * p[id]! }));
  ranked.sort((a, b) => b.x - a.x || a.id - b.id);
  return ranked.slice(0, limit).map(({ id, ratio }) => ({ entry: shard.entries[id]!, score: toScale(ratio, shard.classifierWeight * p[id]!, CLASSIFIER_MIDPOINT) }));
}

/** FNV-1a 32 of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The indexes of the n highest values, highest first. */
function topIndexes(values: Float64Array, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    let at = out.length;
    while (at > 0 && values[i]! > values[out[at - 1]!]!) at--;
    if (at < n) {
      out.splice(at, 0, i);
      if (out.length > n) out.pop();
    }
  }
  return out;
}

/**
 * Indexes the knowledge base once per language; a question is matched against its language's entries.
 * Dialogue-only entries are left out: they answer only inside a dialogue (dialogue.ts).
 */
export function createRetriever(kb: KnowledgeBase, options: RetrievalOptions = {}): Retriever {
  return indexEntries(kb.entries.filter((e) => !e.dialogueOnly), options);
}

/** A retriever over exactly these entries (the normal index, or the follow-ups of one dialogue step). */
export function indexEntries(entries: KbEntry[], options: RetrievalOptions = {}): Retriever {
  const settings = { answerWeight: options.answerWeight ?? 0.5, classifierWeight: options.classifierWeight ?? 1, fuzzy: options.fuzzy ?? true, analyzer: options.analyzer ?? {} };
  const byLanguage = new Map<string, KbEntry[]>();
  for (const entry of entries) {
    const list = byLanguage.get(entry.language);
    if (list) list.push(entry);
    else byLanguage.set(entry.language, [entry]);
  }
  const shards = new Map<string, Shard>();
  const shardFor = (language: string): Shard => {
    // A language without entries of its own searches the whole base with the language-neutral analysis and words
    // only (BM25 and fuzzy terms, no classifier to train): one shard for all of them, built on the first such
    // question at the cost of an index, so a request in every ISO 639-1 code builds one index more, not 184.
    const key = byLanguage.has(language) ? language : NEUTRAL;
    let shard = shards.get(key);
    if (!shard) {
      shard = buildShard(byLanguage.get(key) ?? entries, key, key === NEUTRAL ? { ...settings, classifierWeight: 0 } : settings);
      shards.set(key, shard);
    }
    return shard;
  };
  for (const language of byLanguage.keys()) shardFor(language);
  return {
    languages: new Set(byLanguage.keys()),
    answer: (question, language, limit = 5) => rank(shardFor(language), question, limit),
  };
}
