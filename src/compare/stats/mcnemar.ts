/**
 * The exact McNemar test on paired binary outcomes: under the null hypothesis the b discordant pairs
 * one way and the c the other way are Binomial(b + c, 1/2). Two-sided p = min(1, 2 * P(X <= min(b, c))).
 * The tail is summed in log space (log-sum-exp), so it stays exact to double precision for large b + c.
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`McNemar counts must be whole numbers >= 0, got b=${b}, c=${c}`);
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  if (2 * k + 1 >= n) return 1; // the tail holds half the mass or more
  // log C(n, i) built up term by term: log C(n, i) = log C(n, i - 1) + log(n - i + 1) - log(i)
  const logTerms: number[] = [0];
  let logC = 0;
  for (let i = 1; i <= k; i++) {
    logC += Math.log(n - i + 1) - Math.log(i);
    logTerms.push(logC);
  }
  const logTail = logSumExp(logTerms) - n * Math.LN2;
  return Math.min(1, 2 * Math.exp(logTail));
}

/** log(sum(exp(x_i))) without overflow. */
export function logSumExp(xs: readonly number[]): number {
  let max = -Infinity;
  for (const x of xs) if (x > max) max = x;
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (const x of xs) sum += Math.exp(x - max);
  return max + Math.log(sum);
}

/**
 * The power of the exact McNemar test at `alpha` for a given number of fixed pairs `c`: the smallest number of broken
 * pairs b (b > c) whose two-sided p is below alpha. It always exists (p falls as b grows: with c = 0, p = 2 / 2^b),
 * but a set of n paired questions holds at most n - c broken ones: below it, a significance gate cannot fail.
 * Found by doubling, then halving (p is monotone in b for b > c).
 */
export function mcnemarMinBroken(c: number, alpha: number): number {
  if (!Number.isInteger(c) || c < 0) throw new RangeError(`fixed pairs must be a whole number >= 0, got ${c}`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  let low = c; // p(low) >= alpha (b = c gives p = 1)
  let high = c + 1;
  while (mcnemarExact(high, c) >= alpha) {
    low = high;
    high = c + 2 * (high - c);
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (mcnemarExact(mid, c) < alpha) high = mid;
    else low = mid;
  }
  return high;
}
