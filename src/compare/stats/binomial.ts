/**
 * A Binomial(n, p) draw from a uniform source in [0, 1): inversion (sequential search from 0) when n·min(p, 1-p)
 * is at most 30, else BTPE (Kachitvichyanukul & Schmeiser 1988, "Binomial random variate generation"), a
 * rejection method whose cost does not grow with n. Both follow numpy's `random_binomial`, so a million trials
 * cost as little as ten.
 */
export function binomial(random: () => number, n: number, p: number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const small = Math.min(p, 1 - p);
  const x = small * n <= 30 ? inversion(random, n, small) : btpe(random, n, small);
  return p > 0.5 ? n - x : x;
}

/** Binomial(n, p) for p <= 0.5 and n·p <= 30: walks the probabilities up from 0, starting again past a far bound. */
function inversion(random: () => number, n: number, p: number): number {
  const q = 1 - p;
  const qn = Math.exp(n * Math.log(q));
  const np = n * p;
  const bound = Math.min(n, np + 10 * Math.sqrt(np * q + 1));
  let x = 0;
  let px = qn;
  let u = random();
  while (u > px) {
    x++;
    if (x > bound) {
      x = 0;
      px = qn;
      u = random();
    } else {
      u -= px;
      px = ((n - x + 1) * p * px) / (x * q);
    }
  }
  return x;
}

/** Stirling-series correction terms of the BTPE final acceptance test. */
const stirling = (v: number, v2: number): number => (13680 - (462 - (132 - (99 - 140 / v2) / v2) / v2) / v2) / v / 166320;

/** Binomial(n, p) for p <= 0.5 and n·p > 30 (BTPE: triangle, parallelograms and exponential tails, then squeeze). */
function btpe(random: () => number, n: number, p: number): number {
  const r = p;
  const q = 1 - r;
  const fm = n * r + r;
  const m = Math.floor(fm);
  const nrq = n * r * q;
  const p1 = Math.floor(2.195 * Math.sqrt(nrq) - 4.6 * q) + 0.5;
  const xm = m + 0.5;
  const xl = xm - p1;
  const xr = xm + p1;
  const c = 0.134 + 20.5 / (15.3 + m);
  let a = (fm - xl) / (fm - xl * r);
  const laml = a * (1 + a / 2);
  a = (xr - fm) / (xr * q);
  const lamr = a * (1 + a / 2);
  const p2 = p1 * (1 + 2 * c);
  const p3 = p2 + c / laml;
  const p4 = p3 + c / lamr;

  for (;;) {
    const u = random() * p4;
    let v = random();
    let y: number;
    if (u <= p1) return Math.floor(xm - p1 * v + u); // the triangle: accepted at once
    if (u <= p2) {
      const x = xl + (u - p1) / c;
      v = v * c + 1 - Math.abs(m - x + 0.5) / p1;
      if (v > 1) continue;
      y = Math.floor(x);
    } else if (u <= p3) {
      y = Math.floor(xl + Math.log(v) / laml);
      if (y < 0 || v === 0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = Math.floor(xr - Math.log(v) / lamr);
      if (y > n || v === 0) continue;
      v = v * (u - p3) * lamr;
    }
    const k = Math.abs(y - m);
    if (k <= 20 || k >= nrq / 2 - 1) {
      // explicit evaluation of f(y) / f(m)
      const s = r / q;
      const aa = s * (n + 1);
      let f = 1;
      if (m < y) for (let i = m + 1; i <= y; i++) f *= aa / i - s;
      else if (m > y) for (let i = y + 1; i <= m; i++) f /= aa / i - s;
      if (v <= f) return y;
      continue;
    }
    // squeeze with the normal approximation, then the final test with Stirling's formula
    const rho = (k / nrq) * ((k * (k / 3 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    const t = (-k * k) / (2 * nrq);
    const A = Math.log(v);
    if (A < t - rho) return y;
    if (A > t + rho) continue;
    const x1 = y + 1;
    const f1 = m + 1;
    const z = n + 1 - m;
    const w = n - y + 1;
    const bound =
      xm * Math.log(f1 / x1) +
      (n - m + 0.5) * Math.log(z / w) +
      (y - m) * Math.log((w * r) / (x1 * q)) +
      stirling(f1, f1 * f1) +
      stirling(z, z * z) +
      stirling(x1, x1 * x1) +
      stirling(w, w * w);
    if (A <= bound) return y;
  }
}
