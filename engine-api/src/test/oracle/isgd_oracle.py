"""Oracle table for the single-class Implicit SGD update of the double-sum softmax (Fagan and
Iyengar, App. F.1): isgd-update.tsv. Each case is solved at high precision from the paper's bracket,
and the root is checked to lie in it with a residual near zero.
Run with the python3 that has mpmath: python3 isgd_oracle.py"""

import random

import mpmath as mp

from lambert_oracle import wright_omega
from oracle_tsv import DPS, fmt_input, fmt_output, log_uniform, write_table

SCRIPT = "isgd_oracle.py"

# (eta, N, K): per-call scalars, so the test batches the cases of each group in one call.
GROUPS = [
    (1e-8, 1, 2), (1e-8, 10**12, 10), (1e-3, 1000, 10), (0.01, 10**12, 10**4), (0.1, 10**6, 1000),
    (1.0, 1000, 2), (1.0, 10**6, 10**6), (10.0, 10**4, 10**9), (100.0, 50, 100), (1e4, 10**12, 10**9),
]
CASES_PER_GROUP = 120


class Problem:
    """g(u) = 2 eta N (1 - e^-u) - a(u)/||x||^2 + 2 (u - u_old) with a(u) = W0(c ||x||^2 e^(z-u))."""

    def __init__(self, z, u_old, xnorm2, eta, n, k):
        self.z, self.u_old, self.xnorm2 = mp.mpf(z), mp.mpf(u_old), mp.mpf(xnorm2)
        self.two_eta_n = 2 * mp.mpf(eta) * n
        self.k = k
        self.rate = self.two_eta_n * (k - 1)

    def a(self, u):
        if self.xnorm2 == 0:
            return mp.mpf(0)
        return wright_omega(self.z - u + mp.log(self.rate * self.xnorm2))

    def terms(self, u):
        """The terms of g, whose sum is g and whose absolute values scale its rounding."""
        a = self.a(u)
        pull = self.rate * mp.exp(self.z - u) if self.xnorm2 == 0 else a / self.xnorm2
        return [-self.two_eta_n * mp.expm1(-u), -pull, 2 * u, -2 * self.u_old]

    def g(self, u):
        return mp.fsum(self.terms(u))

    def solve(self):
        g0 = self.g(self.u_old)
        if g0 == 0:
            return self.u_old
        if g0 < 0:
            lo, hi = self.u_old, mp.log1p((self.k - 1) * mp.exp(self.z))
        else:
            lo, hi = mp.log(self.k - 1) + self.z - self.two_eta_n * self.xnorm2, self.u_old
        assert self.g(lo) <= 0 <= self.g(hi), f"the paper's bracket [{lo}, {hi}] does not hold the root"
        # Bisection down to a narrow bracket, then a bracketing solver to full precision.
        while hi - lo > mp.mpf(10) ** -6 * max(1, abs(lo)):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.g(mid) < 0 else (lo, mid)
        root = mp.findroot(self.g, (lo, hi), solver="anderson")
        scale = mp.fsum(abs(t) for t in self.terms(root))
        assert lo <= root <= hi, f"root {root} left its bracket [{lo}, {hi}]"
        assert abs(self.g(root)) <= scale * mp.mpf(10) ** -(DPS - 10), f"residual {self.g(root)} at {root}"
        return root


def cases(rng):
    """(z, u_old, ||x||^2) triples: ordinary, far apart (|z - u_old| up to 1e4), and edge values."""
    out = []
    for i in range(CASES_PER_GROUP):
        kind = i % 4
        u_old = rng.uniform(-5, 30)
        if kind == 0:
            z = rng.uniform(-20, 20)
        elif kind == 1:
            u_old = rng.uniform(-50, 50)
            z = u_old + rng.choice([-1, 1]) * log_uniform(rng, 1, 4)
        elif kind == 2:
            z = u_old + rng.uniform(-3, 3)
        else:
            z = rng.uniform(-50, 50)
        xnorm2 = log_uniform(rng, -4, 4)
        out.append((z, u_old, xnorm2))
    edge_xnorm2 = [0.0, 5e-324, 1e-300, 1e-12, 1e6, 1e12]
    out += [(rng.uniform(-10, 10), rng.uniform(-5, 20), x) for x in edge_xnorm2]
    out += [(3.0, 3.0, 1.0), (0.0, 0.0, 1.0), (0.0, 5.0, 2.0), (1e4, 0.0, 1.0), (-1e4, 0.0, 1.0),
            (0.0, 1e4, 1.0), (0.0, -1e4, 1.0), (9990.0, -10.0, 0.5), (-9990.0, 10.0, 0.5)]
    return out


def main():
    rng = random.Random(20240613)
    mp.mp.dps = DPS
    rows = []
    for eta, n, k in GROUPS:
        for z, u_old, xnorm2 in cases(rng):
            p = Problem(z, u_old, xnorm2, eta, n, k)
            u = p.solve()
            rows.append([fmt_input(v) for v in (z, u_old, xnorm2, eta, float(n), float(k))]
                        + [fmt_output(u), fmt_output(p.a(u))])
    write_table("isgd-update", SCRIPT,
                ["The new u solving 2 eta N (1 - e^-u) - a(u)/||x||^2 + 2 (u - u_old) = 0 and the step",
                 "a = W0(2 eta N (K-1) ||x||^2 e^(z-u)). Each root lies in the paper's bracket and its residual",
                 f"is below 1e-{DPS - 10} of the sum of the absolute terms of g. N and K are integers."],
                ["z", "u_old", "xnorm2", "eta", "N", "K", "=u", "=a"], rows)


if __name__ == "__main__":
    main()
