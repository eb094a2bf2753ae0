import { fileURLToPath } from 'node:url';

// Resolved from the package root, so this works from src/engine/ and dist/engine/ alike.
/** The sample knowledge base shipped in `datasets/sample/`. */
export const SAMPLE_KB = fileURLToPath(new URL('../../datasets/sample/kb.jsonl', import.meta.url));
/** The sample question set that goes with it. */
export const SAMPLE_QUESTIONS = fileURLToPath(new URL('../../datasets/sample/questions.csv', import.meta.url));
/** Sample dialogues with the sample knowledge base, one conversation per line (datasets/sample/README.md). */
export const SAMPLE_CONVERSATIONS = fileURLToPath(new URL('../../datasets/sample/conversations.jsonl', import.meta.url));
