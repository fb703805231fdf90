"""Oracle tables for org.largecat.eval.UtilityModelQuadrature: log p(y | psi) of the multinomial
probit (Gaussian noise) and multinomial logistic (logistic noise) models, augment-and-reduce Eq. 5,

    p(y | psi) = int f(e) prod_{k != y} F(e + psi_y - psi_k) de,

by mpmath.quad at 30 digits. Writes utility-psi.tsv (the utility vectors, as groups of equal values)
and utility-logp-gaussian.tsv, utility-logp-logistic.tsv (log p of a class of each listed group).
Run with the python3 that has mpmath: python3 utility_oracle.py  (two processes, a few minutes)

A case's psi is its groups in order, each group `count` classes of utility `value`; large K is
reached by repeating values, so the integrand costs one log F per group, not per class. Each truth
is integrated twice, by tanh-sinh and by Gauss-Legendre on different break points around the mode
of the (log-concave) integrand, and the two must agree to 1e-20 in log p.
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
ALL_GROUPS_UP_TO = 8


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
    """The maximum of the concave L on [lo, hi] by golden section, and 1/sqrt(-L'') there."""
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
    h = mp.mpf(10) ** -5
    curvature = -(L(t + h) - 2 * L(t) + L(t - h)) / h ** 2
    width = 50 if curvature <= 1 / mp.mpf(2500) else min(50, 1 / mp.sqrt(curvature))
    return t, mp.mpf(width)


def log_p(noise, groups, g):
    L = log_integrand(noise, groups, g)
    values = [v for v, _ in groups]
    k = sum(c for _, c in groups)
    t, w = mode_and_width(L, min(values), max(values) + math.log(k) + 10)
    top = L(t)
    integrand = lambda s: mp.exp(L(s) - top)
    a = mp.quad(integrand, [-mp.inf] + [t + w * m for m in (-16, -4, -1, 0, 1, 4, 16)] + [mp.inf])
    b = mp.quad(integrand, [-mp.inf] + [t + w * m for m in (-11.3, -2.9, -0.6, 0.7, 3.1, 12.7)] + [mp.inf],
                method="gauss-legendre")
    la, lb = top + mp.log(a), top + mp.log(b)
    if abs(la - lb) > AGREE:
        raise AssertionError(f"{noise} {groups} group {g}: {la} by tanh-sinh, {lb} by Gauss-Legendre")
    return la


def truth_groups(groups):
    n = len(groups)
    if n <= ALL_GROUPS_UP_TO:
        return list(range(n))
    order = sorted(range(n), key=lambda j: groups[j][0])
    picks = [order[round(q * (n - 1))] for q in (0, 0.2, 0.45, 0.7, 0.9, 1)]
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
    add("near", grouped(on_grid(rng, 100, 1.0, 0.25)))
    add("near", grouped(on_grid(rng, 1000, 2.0, 0.5)))
    add("near", grouped(on_grid(rng, 10000, 1.0, 0.5)))
    add("near", grouped(on_grid(rng, 10000, 3.0, 1.0)))
    # One class far above all others, then far below, margins up to 60.
    for margin in (10.0, 30.0, 60.0):
        rest = [rng.gauss(0, 1) for _ in range(7)]
        add("above", grouped([max(rest) + margin] + rest))
        rest = [rng.gauss(0, 1) for _ in range(7)]
        add("below", grouped([min(rest) - margin] + rest))
    for margin in (20.0, 60.0):
        rest = on_grid(rng, 9999, 1.0, 0.5)
        add("above", grouped([max(rest) + margin] + rest))
        rest = on_grid(rng, 9999, 1.0, 0.5)
        add("below", grouped([min(rest) - margin] + rest))
    # Ties.
    add("ties", [(0.25, 6)])
    add("ties", [(1.5, 10), (0.0, 30), (-2.0, 10)])
    add("ties", [(-3.0, 10000)])
    add("ties", [(2.0, 2), (1.0, 4998), (-1.0, 5000)])
    # A few huge outliers.
    add("outliers", grouped([rng.gauss(0, 1) for _ in range(5)] + [150.0, -200.0]))
    add("outliers", grouped(on_grid(rng, 9997, 1.0, 0.5) + [120.0, -150.0, -300.0]))
    add("outliers", grouped(on_grid(rng, 998, 1.0, 0.5) + [-100.0, -250.0]))
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
    with multiprocessing.Pool(2) as pool:
        results = pool.map(solve, jobs, chunksize=1)
    regimes = "; ".join(f"{c}: {r} K={sum(n for _, n in gs)}" for c, (r, gs) in enumerate(all_cases))
    write_table("utility-psi", SCRIPT,
                ["Utility vectors psi for the additive-noise models, as groups of equal values: case c is",
                 "its groups g in order, each `count` classes of utility `value`. Cases:", regimes],
                ["case", "group", "value", "count"], psi_rows)
    for noise in NOISES:
        rows = [[str(case), str(g), mp.nstr(v, 25)] for n, case, g, v in results if n == noise]
        write_table(f"utility-logp-{noise}", SCRIPT,
                    [f"log p(y | psi) under standard {noise} noise (augment-and-reduce Eq. 5) for a class y of",
                     "group g of case c in utility-psi.tsv, by mpmath.quad at 30 digits; tanh-sinh and",
                     "Gauss-Legendre on different break points agreed to 1e-20."],
                    ["case", "group", "=logp"], rows)


if __name__ == "__main__":
    main()
