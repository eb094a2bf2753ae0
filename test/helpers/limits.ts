import { limits, type Limits } from '../../src/util/limits.js';

/**
 * Lowers bounds in this process, so that a test shows a refusal with a fixture just past the bound (2 MiB past 1 MiB)
 * rather than hundreds of megabytes; the messages name the bound in force. Returns a function that puts back the
 * bounds that were in force. A process started by the test (the built CLI) keeps the defaults.
 */
export function setLimitsForTests(lower: Partial<Limits>): () => void {
  const before = { ...limits };
  Object.assign(limits as Limits, lower);
  return () => void Object.assign(limits as Limits, before);
}
