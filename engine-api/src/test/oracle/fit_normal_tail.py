#!/usr/bin/env python3
"""Fits the piecewise polynomial behind org.largecat.special.Normal and writes NormalTailFit.java,
and the same coefficients as native/src/main/c/normal_tail_fit.h for the native backend's C port.

The fitted function is the second tail of Laplace's continued fraction for the normal upper tail,

    R(t)  = Q(t)/phi(t) = 1/(t + A1(t)),   A1(t) = 1/(t + A2(t)),   A2(t) = 2/(t + 3/(t + 4/(t + ...))),

for t >= 0. Everything Normal and TruncatedNormal need follows from A2 without cancellation.
Pieces k = 0..SPLIT-1 cover [k, k+1) with local variable u = t - k - 1/2; the last piece covers
[SPLIT, inf) with u = (SPLIT/t)^2 - 1/2 and fits t*A2(t), which tends to 2. Each piece is the
polynomial interpolating at the Chebyshev nodes of u in [-1/2, 1/2], computed in mpmath and rounded
to double.

Vector backends look a piece up per lane, which costs them more than the terms themselves, so on
[0, SPLIT) the script also fits A2 by one rational function P(t)/S(t) with S(0) = 1, all of whose
coefficients come out positive (so Horner's rule in t >= 0 never cancels): linearised least squares
on Chebyshev nodes with relative weights, reweighted by Lawson's rule towards the minimax fit, the
best iterate kept. Run with the python3 that has mpmath: python3 engine-api/src/test/oracle/fit_normal_tail.py
"""
import os
import mpmath as mp

DPS = 50
SPLIT = 8
DEGREE = 12
RATIONAL_DEGREES = (8, 9)
RATIONAL_NODES = 400
RATIONAL_ITERATIONS = 20
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "main", "java", "org", "largecat", "special",
                   "NormalTailFit.java")
C_OUT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "native", "src", "main", "c",
                     "normal_tail_fit.h")
mp.mp.dps = DPS


def a2(t):
    """A2(t) from erfc at a working precision that absorbs the cancellation (about t^4)."""
    t = mp.mpf(t)
    with mp.workdps(DPS + 20 + int(4 * mp.log10(t + 1))):
        r = mp.sqrt(mp.pi / 2) * mp.erfc(t / mp.sqrt(2)) * mp.exp(t * t / 2)
        a1 = 1 / r - t
        return +(1 / a1 - t)


def piece_function(k):
    """The function of u that piece k approximates."""
    if k < SPLIT:
        return lambda u: a2(k + mp.mpf(1) / 2 + u)

    def tail(u):
        w = u + mp.mpf(1) / 2
        if w == 0:
            return mp.mpf(2)
        t = SPLIT / mp.sqrt(w)
        return t * a2(t)
    return tail


def interpolate(f):
    """Monomial coefficients (constant first) of the Chebyshev interpolant of f on [-1/2, 1/2]."""
    n = DEGREE + 1
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / n) / 2 for j in range(n)]
    vandermonde = mp.matrix([[u ** p for p in range(n)] for u in nodes])
    values = mp.matrix([f(u) for u in nodes])
    return list(mp.lu_solve(vandermonde, values))


def max_relative_error(f, coefficients, samples=400):
    """Largest relative error of the double coefficients (evaluated exactly) on a grid over the piece."""
    worst = mp.mpf(0)
    for i in range(samples + 1):
        u = mp.mpf(i) / samples - mp.mpf(1) / 2
        p = mp.polyval([mp.mpf(c) for c in reversed(coefficients)], u)
        v = f(u)
        worst = max(worst, abs(p - v) / abs(v))
    return worst


def fit_rational():
    """Coefficients (constant first) of P and S, S's constant 1, fitting A2 = P/S on [0, SPLIT)."""
    n, m = RATIONAL_DEGREES
    half = mp.mpf(SPLIT) / 2
    nodes = [half + half * mp.cos(mp.pi * (j + mp.mpf(1) / 2) / RATIONAL_NODES) for j in range(RATIONAL_NODES)]
    values = [a2(t) for t in nodes]
    previous_s = [mp.mpf(1)] * RATIONAL_NODES
    lawson = [mp.mpf(1)] * RATIONAL_NODES
    best = None
    for _ in range(RATIONAL_ITERATIONS):
        # Minimise sum (w (P(t) - A2 S(t)) / S_previous(t))^2, w relative and Lawson's, linear in the coefficients.
        rows, rhs = [], []
        for t, v, s_old, w in zip(nodes, values, previous_s, lawson):
            scale = w / (abs(v) * s_old)
            rows.append([scale * t ** j for j in range(n + 1)] + [-scale * v * t ** j for j in range(1, m + 1)])
            rhs.append(scale * v)
        solution, _ = mp.qr_solve(mp.matrix(rows), mp.matrix(rhs))
        p = [float(solution[j]) for j in range(n + 1)]
        s = [1.0] + [float(solution[n + 1 + j]) for j in range(m)]
        previous_s = [polynomial(s, t) for t in nodes]
        errors = [abs(polynomial(p, t) / polynomial(s, t) - v) / v for t, v in zip(nodes, values)]
        worst = max(errors)
        if best is None or worst < best[0]:
            best = (worst, p, s)
        lawson = [w * mp.sqrt(e) for w, e in zip(lawson, errors)]
        total = sum(lawson)
        lawson = [w * RATIONAL_NODES / total for w in lawson]
    _, p, s = best
    if min(p + s) <= 0:
        raise SystemExit("a rational coefficient is not positive: Horner's rule could cancel")
    return p, s


def polynomial(coefficients, t):
    """The polynomial (constant first) at t, exactly."""
    return mp.polyval([mp.mpf(c) for c in reversed(coefficients)], t)


def rounded_horner(coefficients, t):
    """The polynomial at the double t by Horner's rule in double with fused multiply-adds."""
    r = 0.0
    for c in reversed(coefficients):
        r = float(mp.mpf(r) * t + c)
    return r


def rational_errors(p, s, samples=1600):
    """Largest relative error of P/S on a grid of [0, SPLIT): exact, and by double Horner and division."""
    exact = rounded = mp.mpf(0)
    for i in range(samples):
        t = float(mp.mpf(SPLIT) * i / samples)
        v = a2(t)
        exact = max(exact, abs(polynomial(p, t) / polynomial(s, t) - v) / v)
        rounded = max(rounded, abs(rounded_horner(p, t) / rounded_horner(s, t) - v) / v)
    return exact, rounded


def main():
    pieces = []
    for k in range(SPLIT + 1):
        f = piece_function(k)
        coefficients = [float(c) for c in interpolate(f)]
        error = max_relative_error(f, coefficients)
        print(f"piece {k}: max relative error {mp.nstr(error, 3)}")
        pieces.append((k, coefficients, error))
    worst = max(e for _, _, e in pieces)
    p, s = fit_rational()
    exact, rounded = rational_errors(p, s)
    print(f"rational: max relative error {mp.nstr(exact, 3)}, {mp.nstr(rounded, 3)} in double")
    write_java(pieces, worst, (p, s, exact, rounded))
    write_c(pieces, worst)


def coefficient_lines(pieces, indent):
    """The coefficients, three to a line, each piece after a comment saying where it applies."""
    lines = []
    for k, coefficients, error in pieces:
        where = f"[{k}, {k + 1}), u = t - {k}.5" if k < SPLIT else f"[{SPLIT}, inf), u = ({SPLIT}/t)^2 - 0.5, value t*A2(t)"
        lines.append(f"{indent}// {where}; max relative error {mp.nstr(error, 2)}")
        for i in range(0, len(coefficients), 3):
            lines.append(indent + ", ".join(repr(c) for c in coefficients[i:i + 3]) + ",")
    return chr(10).join(lines)


def rational_lines(coefficients, indent):
    """Coefficients three to a line."""
    return chr(10).join(indent + ", ".join(repr(c) for c in coefficients[i:i + 3]) + ","
                        for i in range(0, len(coefficients), 3))


def write_java(pieces, worst, rational):
    p, s, exact, rounded = rational
    with open(OUT, "w") as out:
        out.write(f"""package org.largecat.special;

/**
 * Coefficients of the piecewise polynomial fit of A2(t) = 2/(t + 3/(t + 4/(t + ...))), t >= 0, the
 * second tail of Laplace's continued fraction R(t) = Q(t)/phi(t) = 1/(t + 1/(t + 2/(t + ...))), used
 * by {{@link Normal}}, and of a rational fit of A2 below SPLIT that vector backends evaluate lane by
 * lane with the last piece beyond it. Generated by engine-api/src/test/oracle/fit_normal_tail.py with mpmath
 * {mp.__version__} at {DPS} digits; do not edit. Pieces k = 0..{SPLIT - 1} fit A2 on [k, k + 1) in u = t - k - 1/2;
 * the last piece fits t*A2(t) on [{SPLIT}, inf) in u = ({SPLIT}/t)^2 - 1/2. Each is the degree-{DEGREE} polynomial
 * interpolating at the Chebyshev nodes of u in [-1/2, 1/2]; the worst relative error of the rounded
 * coefficients on a grid is {mp.nstr(worst, 2)}.
 */
public final class NormalTailFit {{
  private NormalTailFit() {{}}

  /** Where the pieces in t end and the piece in (SPLIT/t)^2 begins. */
  public static final double SPLIT = {SPLIT};

  /** Degree of every piece. */
  public static final int DEGREE = {DEGREE};

  /** DEGREE + 1 coefficients per piece, piece after piece, constant term first. */
  static final double[] COEFFICIENTS = {{
{coefficient_lines(pieces, "      ")}
  }};

  /**
   * The numerator P of A2(t) = P(t)/S(t) on [0, SPLIT), for vector backends, which pay a table lookup
   * per coefficient to take each lane's piece: degree {len(p) - 1}, constant term first. With S, all
   * coefficients are positive; the worst relative error of P/S on a grid is {mp.nstr(exact, 2)}, and
   * {mp.nstr(rounded, 2)} with P and S by Horner's rule in double (fused multiply-adds) and one division.
   */
  static final double[] RATIONAL_NUMERATOR = {{
{rational_lines(p, "      ")}
  }};

  /** The denominator S of the rational fit, degree {len(s) - 1}, constant term (1) first. */
  static final double[] RATIONAL_DENOMINATOR = {{
{rational_lines(s, "      ")}
  }};

  /** A copy of the coefficients: DEGREE + 1 per piece, piece after piece, constant term first. */
  public static double[] coefficients() {{
    return COEFFICIENTS.clone();
  }}

  /** A copy of the rational fit's numerator coefficients, constant term first. */
  public static double[] rationalNumerator() {{
    return RATIONAL_NUMERATOR.clone();
  }}

  /** A copy of the rational fit's denominator coefficients, constant term (1) first. */
  public static double[] rationalDenominator() {{
    return RATIONAL_DENOMINATOR.clone();
  }}
}}
""")
    print(f"wrote {os.path.normpath(OUT)}")


def write_c(pieces, worst):
    """The C twin of NormalTailFit.java; repr() gives each double's shortest decimal, which C reads back exactly."""
    with open(C_OUT, "w") as out:
        out.write(f"""/*
 * Coefficients of the piecewise polynomial fit of A2(t) = 2/(t + 3/(t + 4/(t + ...))), t >= 0, for the
 * C port of org.largecat.special.Normal (normal.h); the same numbers as NormalTailFit.java. Generated
 * by engine-api/src/test/oracle/fit_normal_tail.py with mpmath {mp.__version__} at {DPS} digits; do not edit.
 * Pieces k = 0..{SPLIT - 1} fit A2 on [k, k + 1) in u = t - k - 1/2; the last piece fits t*A2(t) on
 * [{SPLIT}, inf) in u = ({SPLIT}/t)^2 - 1/2. Worst relative error of the rounded coefficients: {mp.nstr(worst, 2)}.
 */
#ifndef LARGECAT_NORMAL_TAIL_FIT_H
#define LARGECAT_NORMAL_TAIL_FIT_H

/** Where the pieces in t end and the piece in (SPLIT/t)^2 begins. */
#define NORMAL_TAIL_SPLIT {SPLIT}

/** Degree of every piece. */
#define NORMAL_TAIL_DEGREE {DEGREE}

/** NORMAL_TAIL_DEGREE + 1 coefficients per piece, piece after piece, constant term first. */
static const double NORMAL_TAIL_COEFFICIENTS[] = {{
{coefficient_lines(pieces, "    ")}
}};

#endif
""")
    print(f"wrote {os.path.normpath(C_OUT)}")


if __name__ == "__main__":
    main()
