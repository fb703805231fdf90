"""Oracle tables for org.largecat.special.Logistic, Gumbel and PolyaGamma: log-sigmoid.tsv,
softplus.tsv, logistic-logpdf.tsv, gumbel-logcdf.tsv, gumbel-logpdf.tsv, pg-mean.tsv.
Run with the python3 that has mpmath: python3 elementary_oracle.py"""

import math
import random

import mpmath as mp

from oracle_tsv import (CHECKED_NOTE, INF, MAX, MIN_NORMAL, MIN_SUBNORMAL, NAN, checked, fmt_input, fmt_output,
                        log_uniform, neighbours, unique, write_table)

SCRIPT = "elementary_oracle.py"
LOG_MAX = math.log(MAX)  # e^x overflows above this
LOG_MIN_SUBNORMAL = -745.1332191019411  # e^x rounds to 0 below this
LOG_MIN_NORMAL = -708.3964185322641  # e^x is subnormal below this


def log_sigmoid(x):
    return -mp.log1p(mp.exp(-x))


def softplus(x):
    return mp.log1p(mp.exp(x))


def logistic_logpdf(x):
    t = abs(x)  # even; this form has no cancellation
    return -t - 2 * mp.log1p(mp.exp(-t))


def gumbel_logcdf(x):
    return -mp.exp(-x)


def gumbel_logpdf(x):
    return -x - mp.exp(-x)


def pg_mean(c):
    return mp.mpf(1) / 4 if c == 0 else mp.tanh(c / 2) / (2 * c)


# The limits at +-Inf (NaN gives NaN everywhere).
LIMITS = {
    log_sigmoid: (mp.mpf(0), -mp.inf),
    softplus: (mp.inf, mp.mpf(0)),
    logistic_logpdf: (-mp.inf, -mp.inf),
    gumbel_logcdf: (mp.mpf(0), -mp.inf),
    gumbel_logpdf: (-mp.inf, -mp.inf),
    pg_mean: (mp.mpf(0), mp.mpf(0)),
}


def truth(f, x):
    if math.isnan(x):
        return mp.nan
    if math.isinf(x):
        return LIMITS[f][0 if x > 0 else 1]
    return checked(f, mp.mpf(x))


def symmetric(xs):
    return xs + [-x for x in xs]


def edges():
    """Special and extreme doubles of both signs."""
    return symmetric([0.0, MIN_SUBNORMAL, MIN_NORMAL, 1e-300, 1e-20, 1.0, 710.0, 745.0, 746.0, 1e300, MAX, INF]) + [NAN]


def logistic_inputs(rng):
    # Thresholds: the sign switch in softplus (0), e^-x overflowing / underflowing and subnormal,
    # and the region where log1p(e^-x) falls below an ulp of x (around 37).
    xs = edges() + symmetric(neighbours(LOG_MAX, 1) + neighbours(-LOG_MIN_SUBNORMAL, 1)
                             + neighbours(-LOG_MIN_NORMAL, 1) + [36.0, 37.0, 38.0, 0.5, 2.0])
    xs += [rng.uniform(-40, 40) for _ in range(600)]
    xs += [rng.uniform(-750, 750) for _ in range(150)]
    xs += symmetric([log_uniform(rng, -6, 0) for _ in range(50)])
    xs += symmetric([log_uniform(rng, -20, 308) for _ in range(250)])
    return unique(xs)


def gumbel_inputs(rng):
    xs = edges() + neighbours(-LOG_MAX, 2) + neighbours(-LOG_MIN_SUBNORMAL, 2) + neighbours(-LOG_MIN_NORMAL, 1)
    xs += [rng.uniform(-30, 60) for _ in range(600)]
    xs += [rng.uniform(-750, 750) for _ in range(200)]
    xs += symmetric([log_uniform(rng, -6, 0) for _ in range(50)])
    xs += symmetric([log_uniform(rng, -20, 308) for _ in range(250)])
    return unique(xs)


def pg_inputs(rng):
    # Thresholds in PolyaGamma.mean: the series (1e-5), the switch from expm1 to exp (1), 1/(2c) (40).
    xs = edges() + neighbours(1e-5, 2) + neighbours(1.0, 2) + neighbours(40.0, 2) + [37.0, 38.0, 1e-8, 1e-3, 0.5, 2.0]
    xs += [log_uniform(rng, -320, 308.2) for _ in range(500)]
    xs += [rng.uniform(0, 40) for _ in range(400)]
    xs += [rng.uniform(0, 1) for _ in range(100)] + [log_uniform(rng, -6, 0) for _ in range(100)]
    xs += [rng.uniform(40, 800) for _ in range(50)]
    xs += [-rng.uniform(0, 40) for _ in range(50)] + [-log_uniform(rng, -320, 308.2) for _ in range(50)]
    return unique(xs)


def table(name, f, xs, column, notes, argument="x"):
    rows = [[fmt_input(x), fmt_output(truth(f, x))] for x in xs]
    write_table(name, SCRIPT, notes + [CHECKED_NOTE], [argument, "=" + column], rows)


def main():
    rng = random.Random(20240612)
    mp.mp.dps = 60
    xs = logistic_inputs(rng)
    table("log-sigmoid", log_sigmoid, xs, "logsigmoid", ["log sigma(x) = -log(1 + e^-x)."])
    table("softplus", softplus, xs, "softplus", ["log(1 + e^x)."])
    table("logistic-logpdf", logistic_logpdf, xs, "logpdf",
          ["log-density of the standard logistic, -|x| - 2 log(1 + e^-|x|)."])
    xs = gumbel_inputs(rng)
    overflow = "Truths beyond -1e1000000 (x < -2.3e6) are written as -inf, the double they round to."
    table("gumbel-logcdf", gumbel_logcdf, xs, "logcdf", ["Gumbel (maximum) log-cdf, -e^-x.", overflow])
    table("gumbel-logpdf", gumbel_logpdf, xs, "logpdf", ["Gumbel (maximum) log-density, -x - e^-x.", overflow])
    table("pg-mean", pg_mean, pg_inputs(rng), "mean", ["Polya-Gamma PG(1, c) mean tanh(c/2)/(2c), 1/4 at c = 0."], "c")


if __name__ == "__main__":
    main()
