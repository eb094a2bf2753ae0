import { ConfigError } from '../errors.js';
import type { NumberRule } from '../util/numbers.js';

/** The port of `view` unless told otherwise. */
export const VIEW_PORT = 9840;

/** The port of `label` unless told otherwise. */
export const LABEL_PORT = 9841;

/** A port to listen on. */
export const PORT: NumberRule = { says: 'a port number, 0-65535 (0: any free port)', accepts: (n) => Number.isInteger(n) && n >= 0 && n <= 65535, bounds: { integer: true, minimum: 0, maximum: 65535 } };

/** A port a server of answer-eval (serve, view) cannot listen on, as a user mistake naming it; anything else passes on. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const at = `${host}:${port}`;
  const cause = { cause: error };
  if (error.code === 'EADDRINUSE') return new ConfigError(`--port ${port}: ${at} is already in use (another process listens there): choose another port, or --port 0 for any free one`, cause);
  if (error.code === 'EACCES') return new ConfigError(`--port ${port}: no permission to listen on ${at} (ports below 1024 need privileges): choose a port from 1024, or --port 0`, cause);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return new ConfigError(`--host ${host}: no such address on this machine (${error.code}): use e.g. 127.0.0.1`, cause);
  return error;
}
