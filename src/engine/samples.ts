import { fromPackage } from '../util/package-root.js';

/** The sample knowledge base shipped in `datasets/sample/`. */
export const SAMPLE_KB = fromPackage('datasets', 'sample', 'kb.jsonl');
/** The sample question set that goes with it. */
export const SAMPLE_QUESTIONS = fromPackage('datasets', 'sample', 'questions.csv');
/** Sample dialogues with the sample knowledge base, one conversation per line (datasets/sample/README.md). */
export const SAMPLE_CONVERSATIONS = fromPackage('datasets', 'sample', 'conversations.jsonl');
