"""Oracle tables for org.largecat.eval.UtilityModelQuadrature: log p(y | psi) of the multinomial
probit (Gaussian noise) and multinomial logistic (logistic noise) models, augment-and-reduce Eq. 5,

    p(y | psi) = int f(e) prod_{k != y} F(e + psi_y - psi_k) de,

by mpmath.quad at 30 digits. Writes utility-psi.tsv (the utility vectors, as groups of equal values)
and utility-logp-gaussian.tsv, utility-logp-logistic.tsv (log p of a class of each listed group).
Run with the python3 that has mpmath: python3 utility_oracle.py  (two processes, about 8 CPU-minutes)

A case's psi is its groups in order, each group `count` classes of utility `value`; large K is
reached by repeating values, so the integrand costs one log F per group, not per class. Each truth
is integrated twice, by tanh-sinh and by Gauss-Legendre on two different partitions of the stretch
where the (log-concave) integrand is above e^-70 of its peak, in pieces at most two of its widths
long, plus the tails to infinity; the two must agree to 1e-20 in log p.
"""

import math
import multiprocessing
import random

import mpmath as mp

from oracle_tsv import fmt_input, write_table

SCRIPT = "utility_oracle.py"
DPS = 30
AGREE = mp.mpf(10) ** -20
# Truths per case: every group when there are at most this many, else the top, the bottom and
# groups spread between them.
ALL_GROUPS_UP_TO = 6


def log_f_gaussian(x):
    return -x * x / 2 - mp.log(2 * mp.pi) / 2


def log_F_gaussian(x):
    return mp.log(mp.ncdf(x))


def log_F_logistic(x):
    return -mp.log1p(mp.exp(-x))


def log_f_logistic(x):
    return log_F_logistic(x) + log_F_logistic(-x)


NOISES = {
    "gaussian": (log_f_gaussian, log_F_gaussian),
    "logistic": (log_f_logistic, log_F_logistic),
}


def log_integrand(noise, groups, g):
    """t -> log of f(t - psi_y) prod_{k != y} F(t - psi_k) for a class y of group g (Eq. 5 with
    t = e + psi_y)."""
    log_f, log_F = NOISES[noise]
    vy, cy = groups[g]

    def L(t):
        s = log_f(t - vy) + (cy - 1) * log_F(t - vy)
        for j, (v, c) in enumerate(groups):
            if j != g:
                s += c * log_F(t - v)
        return s

    return L


def mode_and_width(L, lo, hi):
    """The maximum of the concave L on [lo, hi] by golden section, and 1/sqrt(-L'') there (at most 1:
    a flat logistic integrand has curvature near 0)."""
    with mp.workdps(20):
        a, b = mp.mpf(lo), mp.mpf(hi)
        r = (mp.sqrt(5) - 1) / 2
        c, d = b - r * (b - a), a + r * (b - a)
        lc, ld = L(c), L(d)
        while b - a > mp.mpf(10) ** -6 * (1 + abs(a)):
            if lc < ld:
                a, c, lc = c, d, ld
                d = a + r * (b - a)
                ld = L(d)
            else:
                b, d, ld = d, c, lc
                c = b - r * (b - a)
                lc = L(c)
        t = (a + b) / 2
        h = mp.mpf(10) ** -4
        curvature = -(L(t + h) - 2 * L(t) + L(t - h)) / h ** 2
    return t, mp.mpf(1) if curvature <= 1 else 1 / mp.sqrt(curvature)


def support_end(L, t, floor, w, direction):
    """Where the concave L falls to floor on one side of its mode t, to within w/8."""
    inner, outer = t, t + direction * w
    while L(outer) > floor:
        inner, outer = outer, outer + 2 * (outer - inner)
    while abs(outer - inner) > w / 8:
        mid = (inner + outer) / 2
        inner, outer = (mid, outer) if L(mid) > floor else (inner, mid)
    return outer


def log_p(noise, groups, g):
    L = log_integrand(noise, groups, g)
    values = [v for v, _ in groups]
    k = sum(c for _, c in groups)
    t, w = mode_and_width(L, min(values), max(values) + math.log(k) + 10)
    top = L(t)
    # Beyond [a, b] the integrand is below e^-70 of its peak (and log-concave): it is still integrated,
    # to infinity, but the pieces of width at most 2w (w <= 1) cover the rest, where the mass is.
    a = support_end(L, t, top - 70, w, -1)
    b = support_end(L, t, top - 70, w, 1)
    integrand = lambda s: mp.exp(L(s) - top)
    n = int(mp.ceil((b - a) / (2 * w)))
    pieces = [a + (b - a) * i / n for i in range(n + 1)]
    shifted = [a + (b - a) * (i + mp.mpf(0.37)) / (n + 1) for i in range(n + 1)]
    x = mp.quad(integrand, [-mp.inf] + pieces + [mp.inf])
    y = mp.quad(integrand, [-mp.inf, a] + shifted + [b, mp.inf], method="gauss-legendre")
    lx, ly = top + mp.log(x), top + mp.log(y)
    if abs(lx - ly) > AGREE:
        raise AssertionError(f"{noise} {groups} group {g}: {lx} by tanh-sinh, {ly} by Gauss-Legendre")
    return lx


def truth_groups(groups):
    n = len(groups)
    if n <= ALL_GROUPS_UP_TO:
        return list(range(n))
    order = sorted(range(n), key=lambda j: groups[j][0])
    picks = [order[round(q * (n - 1))] for q in (0, 0.3, 0.6, 0.9, 1)]
    return sorted(set(picks))


def grouped(values):
    """Equal values as one group (value, count), in order of first appearance."""
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return list(counts.items())


def on_grid(rng, n, scale, step):
    """n utilities N(0, scale^2) rounded to multiples of step: few distinct values for large n."""
    return [round(rng.gauss(0, scale) / step) * step for _ in range(n)]


def cases():
    rng = random.Random(20251122)
    out = []

    def add(regime, groups):
        out.append((regime, groups))

    for gap in (0.75, 8.0, 60.0):
        add("K=2", [(0.0, 1), (-gap, 1)])
    # All near each other.
    add("near", grouped([rng.gauss(0, 1) for _ in range(5)]))
    add("near", grouped([rng.gauss(0, 1) for _ in range(8)]))
    add("near", grouped(on_grid(rng, 100, 1.0, 0.5)))
    add("near", grouped(on_grid(rng, 1000, 2.0, 1.0)))
    add("near", grouped(on_grid(rng, 10000, 1.0, 1.0)))
    add("near", grouped(on_grid(rng, 10000, 3.0, 2.0)))
    # One class far above all others, then far below, margins up to 60.
    for margin in (10.0, 30.0, 60.0):
        rest = [rng.gauss(0, 1) for _ in range(7)]
        add("above", grouped([max(rest) + margin] + rest))
        rest = [rng.gauss(0, 1) for _ in range(7)]
        add("below", grouped([min(rest) - margin] + rest))
    for margin in (20.0, 60.0):
        rest = on_grid(rng, 9999, 1.0, 1.0)
        add("above", grouped([max(rest) + margin] + rest))
        rest = on_grid(rng, 9999, 1.0, 1.0)
        add("below", grouped([min(rest) - margin] + rest))
    # Ties.
    add("ties", [(0.25, 6)])
    add("ties", [(1.5, 10), (0.0, 30), (-2.0, 10)])
    add("ties", [(-3.0, 10000)])
    add("ties", [(2.0, 2), (1.0, 4998), (-1.0, 5000)])
    # A few huge outliers.
    add("outliers", grouped([rng.gauss(0, 1) for _ in range(5)] + [150.0, -200.0]))
    add("outliers", grouped(on_grid(rng, 9997, 1.0, 1.0) + [120.0, -150.0, -300.0]))
    add("outliers", grouped(on_grid(rng, 998, 1.0, 1.0) + [-100.0, -250.0]))
    return out


def solve(job):
    noise, case, groups, g = job
    mp.mp.dps = DPS
    return noise, case, g, log_p(noise, groups, g)


def main():
    all_cases = cases()
    psi_rows = []
    jobs = []
    for case, (regime, groups) in enumerate(all_cases):
        for g, (v, c) in enumerate(groups):
            psi_rows.append([str(case), str(g), fmt_input(v), str(c)])
        for noise in NOISES:
            jobs += [(noise, case, groups, g) for g in truth_groups(groups)]
    results = []
    with multiprocessing.Pool(2) as pool:
        for r in pool.imap_unordered(solve, jobs):
            results.append(r)
            print(f"{len(results)}/{len(jobs)}: {r[0]} case {r[1]} group {r[2]}", flush=True)
    results.sort(key=lambda r: (r[1], r[2]))
    regimes = "; ".join(f"{c}: {r} K={sum(n for _, n in gs)}" for c, (r, gs) in enumerate(all_cases))
    write_table("utility-psi", SCRIPT,
                ["Utility vectors psi for the additive-noise models, as groups of equal values: case c is",
                 "its groups g in order, each `count` classes of utility `value`. Cases:", regimes],
                ["case", "group", "value", "count"], psi_rows, DPS)
    for noise in NOISES:
        rows = [[str(case), str(g), mp.nstr(v, 25)] for n, case, g, v in results if n == noise]
        write_table(f"utility-logp-{noise}", SCRIPT,
                    [f"log p(y | psi) under standard {noise} noise (augment-and-reduce Eq. 5) for a class y of",
                     "group g of case c in utility-psi.tsv, by mpmath.quad at 30 digits; tanh-sinh and",
                     "Gauss-Legendre on different partitions agreed to 1e-20."],
                    ["case", "group", "=logp"], rows, DPS)


if __name__ == "__main__":
    main()
