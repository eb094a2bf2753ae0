/** How a stop by the circuit breaker (--max-consecutive-errors) begins its reason, in errors and in report.json. */
export const CIRCUIT_BREAKER = 'circuit breaker';

/** Whether a stop reason is the circuit breaker's: its errors are in the journal, to be asked again (--rerun errors). */
export const isCircuitBreak = (reason: string | undefined): boolean => reason?.startsWith(`${CIRCUIT_BREAKER}:`) ?? false;
