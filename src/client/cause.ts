import { inspect } from 'node:util';
import type { Secrets } from './secrets/secrets.js';

/**
 * Whether the cause an error keeps (undici's error, the system's, and theirs in turn) holds a secret, anywhere a
 * program printing it would show: no mask reaches inside it, so such a cause is not kept.
 */
export const causeHoldsSecret = (error: Error, secrets: Secrets): boolean =>
  error.cause !== undefined && !secrets.empty && secrets.holds(inspect(error.cause, { depth: 8 }));
