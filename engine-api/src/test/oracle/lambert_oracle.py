"""Oracle tables for org.largecat.special.LambertW: lambertw0.tsv (W0(x)) and wright-omega.tsv
(W0(e^x)). Run with the python3 that has mpmath: python3 lambert_oracle.py"""

import math
import random

import mpmath as mp

from oracle_tsv import (CHECKED_NOTE, INF, MAX, MIN_NORMAL, MIN_SUBNORMAL, NAN, checked, fmt_input, fmt_output,
                        log_uniform, neighbours, unique, write_table)

SCRIPT = "lambert_oracle.py"
# The double nearest -1/e lies 1.2e-17 below it, outside W0's domain: LambertW.w0 maps it to -1 by
# convention, which LambertWOracleTest checks on its own; it is left out of the table.
BRANCH_POINT_DOUBLE = -0.36787944117144233


def w0(x):
    x = mp.mpf(x)
    if x < -1 / mp.e:
        return mp.nan
    return mp.lambertw(x).real


def wright_omega(x):
    """W0(e^x): the root of w + log w = x; for large x solved as that, never forming e^x."""
    x = mp.mpf(x)
    if x > 500:
        w = x - mp.log(x)
        for _ in range(100):  # Newton on w + log w - x, quadratic from this start
            step = (w + mp.log(w) - x) / (1 + 1 / w)
            w -= step
            if abs(step) <= abs(w) * mp.eps * 16:
                return w
        raise AssertionError(f"no convergence for x = {x}")
    return mp.lambertw(mp.exp(x)).real


def special_input(f, x):
    """The truth at a non-finite input, which the mp functions do not take."""
    if math.isnan(x):
        return mp.nan
    return {"w0": {INF: mp.inf, -INF: mp.nan}, "wright_omega": {INF: mp.inf, -INF: mp.mpf(0)}}[f.__name__][x]


def truth(f, x):
    return checked(f, x) if math.isfinite(x) else special_input(f, x)


def lambertw0_inputs(rng):
    xs = [0.0, -0.0, MIN_SUBNORMAL, -MIN_SUBNORMAL, 1e-320, -1e-320, MIN_NORMAL, -MIN_NORMAL, 1e-300, -1e-300,
          1.0, math.e, 10.0, 1e10, 1e100, 1e300, MAX, INF, NAN, -INF, -1.0, -0.5,
          math.nextafter(BRANCH_POINT_DOUBLE, -INF)]
    # The doubles just above -1/e, and -1/e plus small distances.
    up = BRANCH_POINT_DOUBLE
    for _ in range(8):
        up = math.nextafter(up, INF)
        xs.append(up)
    xs += [float(-1 / mp.e + mp.mpf(10) ** -k) for k in range(1, 17)]
    # Both sides of each threshold in LambertW: the series at 0 (2^-26), the branch regime (W0 = -1/2).
    for t in (2.0 ** -26, -(2.0 ** -26), -0.5 * math.exp(-0.5), -0.25):
        xs += neighbours(t, 2)
    xs += [log_uniform(rng, -320, 308.3) for _ in range(500)]
    xs += [rng.uniform(0, 20) for _ in range(200)]
    xs += [log_uniform(rng, -9, 0) for _ in range(100)]
    xs += [-rng.uniform(0, 1 / math.e) for _ in range(200)]
    xs += [-log_uniform(rng, -320, math.log10(1 / math.e)) for _ in range(150)]
    xs += [float(-1 / mp.e + mp.mpf(10) ** rng.uniform(-16.5, -0.6)) for _ in range(300)]
    return unique(x for x in xs if x != BRANCH_POINT_DOUBLE)


def wright_omega_inputs(rng):
    log_max = math.log(MAX)
    xs = [0.0, -0.0, MIN_SUBNORMAL, -MIN_SUBNORMAL, MIN_NORMAL, -MIN_NORMAL, 1e-300, -1e-300, -1.0, 2.0,
          -708.0, -745.0, -745.2, -746.0, -800.0, -1e4, -1e300, 710.0, 1e4, 1e100, 1e300, MAX, -MAX,
          INF, -INF, NAN]
    # Both sides of each threshold: the switch to log space (1), e^x overflowing (log max double),
    # e^x underflowing (-745.13) and turning subnormal (-708.4).
    for t in (1.0, log_max, -745.1332191019411, -708.3964185322641):
        xs += neighbours(t, 2)
    xs += [rng.uniform(-40, 40) for _ in range(500)]
    xs += [rng.uniform(-5, 5) for _ in range(100)]
    xs += [log_uniform(rng, -20, 300) for _ in range(300)]
    xs += [-log_uniform(rng, -20, 3.5) for _ in range(200)]
    return unique(xs)


def main():
    rng = random.Random(20240611)
    mp.mp.dps = 60
    rows = [[fmt_input(x), fmt_output(truth(w0, x))] for x in lambertw0_inputs(rng)]
    write_table("lambertw0", SCRIPT,
                ["W0(x), principal branch; nan below -1/e. The double nearest -1/e (-0.36787944117144233,",
                 "below -1/e) is left out: LambertW maps it to -1 by convention.", CHECKED_NOTE],
                ["x", "=w"], rows)
    rows = [[fmt_input(x), fmt_output(truth(wright_omega, x))] for x in wright_omega_inputs(rng)]
    write_table("wright-omega", SCRIPT,
                ["W0(e^x), the Wright omega function on the reals. Truths below 1e-1000000 (x < -2.3e6)",
                 "are written as 0, the double they round to.", CHECKED_NOTE],
                ["x", "=w"], rows)


if __name__ == "__main__":
    main()
