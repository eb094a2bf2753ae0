/**
 * Holm-Bonferroni adjusted p-values, in the order given: sort ascending, multiply the i-th smallest
 * (0-based) by (m - i), keep the running maximum so the adjusted values stay monotone, cap at 1.
 * Reject a hypothesis at level alpha when its adjusted p-value is below alpha.
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
