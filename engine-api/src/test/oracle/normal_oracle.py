#!/usr/bin/env python3
"""Oracle tables for org.largecat.special.Normal and TruncatedNormal, computed with mpmath.

Writes engine-api/src/test/resources/oracle/normal-logcdf.tsv, normal-mills.tsv and truncnorm.tsv
in the format read by org.largecat.oracle.OracleTable. Run from anywhere with the python3 that has
mpmath: python3 engine-api/src/test/oracle/normal_oracle.py

Every value is computed at DPS digits, with the working precision raised by the digits a formula
cancels, and again at CHECK_DPS digits; the two must agree to CHECK_AGREEMENT. The truncated-normal
values use the paper's closed forms (categorical-from-binary, Eqs. D.1.4-D.1.8) as written, for both
sides, and those forms are first checked against direct numerical integration.
"""
import math
import os
import random
import sys

import mpmath as mp

from oracle_tsv import fmt_input

DPS = 50
CHECK_DPS = 70
CHECK_AGREEMENT = mp.mpf(10) ** -40
DIGITS = 30
# mpmath's erfc fails or loses digits for huge arguments; from here on the upper tail comes from its
# asymptotic series, whose terms shrink by (2k+1)/t^2 < 1e-5 per step.
ASYMPTOTIC_FROM = 1000
MAX = sys.float_info.max
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "oracle")
RANDOM = random.Random(20250611)


def ratio_asymptotic(t):
    """R(t) = Q(t)/phi(t) = (1/t) sum_k (-1)^k (2k-1)!!/t^(2k); alternating, error below the first term left out."""
    total, term, k = mp.mpf(0), 1 / t, 0
    while abs(term) > mp.eps * abs(total) / 100 or k == 0:
        total += term
        k += 1
        term = -term * (2 * k - 1) / (t * t)
    return total


def pdf(x):
    return mp.exp(-x * x / 2) / mp.sqrt(2 * mp.pi)


def upper_tail(t):
    """Q(t) = 1 - Phi(t) for t >= 0."""
    if t < ASYMPTOTIC_FROM:
        return mp.erfc(t / mp.sqrt(2)) / 2
    return ratio_asymptotic(t) * pdf(t)


def cdf(x):
    return upper_tail(-x) if x < 0 else 1 - upper_tail(x)


def log_cdf(x):
    return mp.log(upper_tail(-x)) if x < 0 else mp.log1p(-upper_tail(x))


def mills(x):
    return pdf(x) / cdf(x)


def truncated_normal(mu, side):
    """(mean, variance, entropy) of N(mu, 1) truncated to [0, inf) (side 1) or (-inf, 0) (side -1)."""
    phi = pdf(-mu)
    if side == 1:
        mass = cdf(mu)  # 1 - Phi(-mu), without the subtraction
        mean = mu + phi / mass  # D.1.4
        entropy = mp.log(mp.sqrt(2 * mp.pi * mp.e) * mass) - mu * phi / (2 * mass)  # D.1.7
    else:
        mass = cdf(-mu)
        mean = mu - phi / mass  # D.1.4
        entropy = mp.log(mp.sqrt(2 * mp.pi * mp.e) * mass) + mu * phi / (2 * mass)  # D.1.8
    variance = 1 - mu * (mean - mu) - (mean - mu) ** 2  # D.1.5, D.1.6
    return mean, variance, entropy


def precise(name, f, x, cancelled_digits=0):
    """f(x) at DPS and at CHECK_DPS (plus the digits the formula cancels); they must agree."""
    values = []
    for dps in (DPS, CHECK_DPS):
        with mp.workdps(dps + 10 + cancelled_digits):
            values.append(f(mp.mpf(x)))
    for low, high in zip(*values) if isinstance(values[0], tuple) else [values]:
        if abs(low - high) > CHECK_AGREEMENT * abs(high):
            raise AssertionError(f"{name}({x!r}): {low} at {DPS} digits, {high} at {CHECK_DPS}")
    return values[1]


def tail_digits(mu):
    """Digits the truncated-normal formulas cancel: the mean loses about mu^2, the variance mu^4."""
    return int(4 * math.log10(1 + abs(mu))) + 1


def check_closed_forms():
    """D.1.4-D.1.8 against moments and entropy integrated numerically."""
    with mp.workdps(30):
        for mu in (-3.5, -1, 0, 0.5, 2.5):
            for side in (1, -1):
                lo, hi = (0, mp.inf) if side == 1 else (-mp.inf, 0)
                mass = mp.quad(lambda x: pdf(x - mu), [lo, mu, hi] if lo < mu < hi else [lo, hi])
                density = lambda x: pdf(x - mu) / mass
                pieces = [lo, mu, hi] if lo < mu < hi else [lo, hi]
                mean = mp.quad(lambda x: x * density(x), pieces)
                variance = mp.quad(lambda x: (x - mean) ** 2 * density(x), pieces)
                entropy = -mp.quad(lambda x: density(x) * mp.log(density(x)), pieces)
                for name, closed, direct in zip(("mean", "variance", "entropy"),
                                                truncated_normal(mp.mpf(mu), side), (mean, variance, entropy)):
                    if abs(closed - direct) > mp.mpf(10) ** -20:
                        raise AssertionError(f"{name} at mu={mu} side={side}: closed form {closed}, integral {direct}")


def check_asymptotic_series():
    """The asymptotic series and erfc agree where both are accurate."""
    with mp.workdps(60):
        for t in (ASYMPTOTIC_FROM, 2 * ASYMPTOTIC_FROM, 5 * ASYMPTOTIC_FROM):
            t = mp.mpf(t)
            by_erfc = mp.erfc(t / mp.sqrt(2)) / 2 / pdf(t)
            if abs(ratio_asymptotic(t) - by_erfc) > mp.mpf(10) ** -45 * by_erfc:
                raise AssertionError(f"asymptotic series and erfc disagree at t={t}")


def output_text(v):
    if isinstance(v, str):
        return v
    return mp.nstr(v, DIGITS)


def around(*values):
    """Each value with its two neighbouring doubles, for both sides of a branch switch."""
    points = []
    for v in values:
        points += [math.nextafter(v, -math.inf), v, math.nextafter(v, math.inf)]
    return points


def log_uniform(n, low_exponent, high_exponent, sign):
    return [sign * 10 ** RANDOM.uniform(low_exponent, high_exponent) for _ in range(n)]


def uniform(n, low, high):
    return [RANDOM.uniform(low, high) for _ in range(n)]


def unique(points):
    seen, kept = set(), []
    for p in points:
        key = (repr(p), math.copysign(1, p) if p == 0 else 0)
        if key not in seen:
            seen.add(key)
            kept.append(p)
    return kept


# Where Normal switches branch: the sign of x, the ends of the fitted pieces in t = |x| (1..8, the
# last one starting the piece in (8/t)^2), UPPER_UNDERFLOW = 39, and where t*(t/2) overflows.
NORMAL_SWITCHES = [0.0] + [s * k for k in range(1, 9) for s in (1, -1)] + [39.0, -math.sqrt(2 * MAX)]
TINY = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, -2.2250738585072014e-308, 1e-300, -1e-300,
        1e-20, -1e-20]


def write_table(name, header, comments, rows):
    path = os.path.join(OUT, name + ".tsv")
    with open(path, "w") as out:
        out.write(f"# Generated by engine-api/src/test/oracle/normal_oracle.py with mpmath {mp.__version__}:\n")
        out.write(f"# values computed at {DPS} digits plus the digits each formula cancels, checked against\n")
        out.write(f"# a second evaluation at {CHECK_DPS} digits, written with {DIGITS} significant digits.\n")
        for c in comments:
            out.write(f"# {c}\n")
        out.write("\t".join(header) + "\n")
        for r in rows:
            out.write("\t".join(r) + "\n")
    print(f"wrote {os.path.normpath(path)}: {len(rows)} rows")


def normal_table(name, column, function, points, specials, comments):
    rows = []
    for x in unique(points):
        if x in specials or math.isnan(x):
            truth = specials.get(x, "nan")
        else:
            truth = output_text(precise(name, function, x))
        rows.append((fmt_input(x), truth))
    write_table(name, ["x", "=" + column], comments, rows)


def main():
    check_closed_forms()
    check_asymptotic_series()

    common = (TINY + around(*NORMAL_SWITCHES) + uniform(600, -40, 40) + log_uniform(100, -320, 0, 1)
              + log_uniform(100, -320, 0, -1) + uniform(100, 30, 40) + [math.nan, math.inf, -math.inf])
    normal_table(
        "normal-logcdf", "logcdf", log_cdf,
        common + [-1e10, 40.0] + around(-1e10, 40.0, 37.5) + log_uniform(300, 0, 10, -1)
        + [-1e20, -1e100, -1e154, -1.5e154, -1e200, -1e300, -MAX, 41.0, 50.0, 100.0, 1000.0],
        {math.inf: "0", -math.inf: "-inf"},
        ["The contract covers x in [-1e10, 40]; rows below -1e10 (to -Double.MAX_VALUE, where the",
         "result overflows to -inf below about -1.9e154) and above 40 (where it underflows) are outside it;",
         "the test holds them to the same bound.",
         "Rows stop at x = 1000: beyond, the tiny true value has an exponent BigDecimal cannot hold."])
    normal_table(
        "normal-mills", "mills", mills,
        common + around(38.6) + log_uniform(300, 0, 308.25, -1)
        + [-1e10, -1e20, -1e100, -1e154, -1e200, -1e300, -MAX, 41.0, 100.0, 1000.0],
        {math.inf: "0", -math.inf: "inf"},
        ["The contract covers every finite x. Rows stop at x = 1000: beyond, the tiny true value has an",
         "exponent BigDecimal cannot hold."])

    with mp.workdps(DPS):
        zero_crossing = float(mp.findroot(lambda m: truncated_normal(m, 1)[2], -2.3))
    mus = (TINY + around(*NORMAL_SWITCHES[:-1], 1e6, -1e6) + uniform(500, -40, 40) + log_uniform(100, 0, 6, 1)
           + log_uniform(100, 0, 6, -1) + log_uniform(30, -320, 0, 1) + log_uniform(30, -320, 0, -1)
           + around(zero_crossing, -zero_crossing) + [zero_crossing + d for d in (-1e-6, 1e-6, -1e-10, 1e-10)]
           + [s * m for s in (1, -1) for m in (1e10, 6.7e153, 1e154, 1e160, 4.5e161, 1e200, 1e300, MAX)]
           + [math.nan, math.inf, -math.inf])
    with mp.workdps(DPS):
        untruncated = output_text(mp.log(2 * mp.pi * mp.e) / 2)
    limits = {math.inf: (("inf", "1", untruncated), ("0", "0", "-inf")),
              -math.inf: (("0", "0", "-inf"), ("-inf", "1", untruncated))}
    rows = []
    for mu in unique(mus):
        for side in (1, -1):
            if math.isnan(mu):
                outputs = ("nan", "nan", "nan")
            elif mu in limits:
                outputs = limits[mu][0 if side == 1 else 1]
            else:
                values = precise(f"truncnorm side {side}", lambda m: truncated_normal(m, side), mu, tail_digits(mu))
                outputs = tuple(output_text(v) for v in values)
            rows.append((fmt_input(mu), str(side)) + outputs)
    write_table(
        "truncnorm", ["mu", "side", "=mean", "=variance", "=entropy"],
        ["side 1: N(mu, 1) truncated to [0, inf); side -1: to (-inf, 0). The contract covers mu in",
         "[-1e6, 1e6]; rows beyond (to +-Double.MAX_VALUE and the limits at +-inf) are outside it; the test",
         "holds them to the same bound, where a subnormal or zero truth allows 2 units of Double.MIN_VALUE.",
         f"The positive-side entropy crosses zero at mu = {zero_crossing!r}; rows around it test the mixed bound."],
        rows)


if __name__ == "__main__":
    main()
