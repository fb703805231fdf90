/*
 * The C port of org.largecat.kernel.scalar.SingleClassImplicitStep on vdouble lanes: LANES
 * independent Implicit SGD steps of the double-sum softmax (Fagan and Iyengar, App. F.1) solved in
 * lock-step by the same bracketed, safeguarded Newton iteration on the concave g(u), with the same
 * bracket, probes and stopping rule; the Java class gives the derivation and the bound on the
 * evaluations of g. Each lane keeps its own bracket and stops when its own bracket is narrow
 * enough; the vector goes on until every lane has stopped. Java's Math.min / Math.max (NaN wins,
 * -0 below +0) are spelled out as java_min / java_max.
 */
#ifndef LARGECAT_IMPLICIT_STEP_H
#define LARGECAT_IMPLICIT_STEP_H

#include <stdbool.h>

#include "lambert_w.h"
#include "logistic.h"

static const double STEP_TOLERANCE = 1e-13; /* relative width of the final bracket, absolute below |u| = 1 */
static const double BOUND_SLACK = 1e-14;    /* allowance for rounding in the closed-form bracket */
/**
 * More evaluations of g than any bracket of doubles needs: the Java class bounds them by
 * 1 + 2 ceil(log2(W / 1e-13)), about 2,140 for the widest W. Reaching it means a bug, not a hard
 * problem, and the kernel stops and reports it rather than spin inside a call the JVM cannot stop.
 */
static const int MAX_EVALUATIONS = 4096;

/** The scalars shared by every problem of one call, SingleClassImplicitStep.Coefficients. */
typedef struct {
  double twoEtaN;            /* 2 eta N */
  double logClassesMinusOne; /* log(K - 1) */
  double rate;               /* c = 2 eta N (K - 1) */
  double logRate;            /* log c */
} step_coefficients;

/** The coefficients for learning rate eta, N datapoints and K classes; Coefficients.of. */
static inline step_coefficients step_coefficients_of(double eta, int64_t datasetSize, int64_t classCount) {
  double twoEtaN = 2 * eta * (double) datasetSize;
  double rate = twoEtaN * (double) (classCount - 1);
  return (step_coefficients) {twoEtaN, log((double) (classCount - 1)), rate, log(rate)};
}

/** Math.min: NaN if either is, -0 below +0. */
static inline vdouble java_min(vdouble a, vdouble b) {
  vdouble equal = (vdouble) ((vlong) a | (vlong) b); /* the negative zero, if either is one */
  return where(a < b, a, where(b < a, b, where(a == b, equal, a + b)));
}

/** Math.max: NaN if either is, +0 above -0. */
static inline vdouble java_max(vdouble a, vdouble b) {
  vdouble equal = (vdouble) ((vlong) a & (vlong) b); /* the positive zero, if either is one */
  return where(a > b, a, where(b > a, b, where(a == b, equal, a + b)));
}

/** The rounding error of s = x + y, exactly (Knuth's TwoSum). */
static inline vdouble two_sum_error(vdouble x, vdouble y, vdouble s) {
  vdouble yPart = s - x;
  return (x - (s - yPart)) + (y - yPart);
}

/** a(u) = W0(c ||x||^2 e^(z-u)) with the exponent as a double-double; SingleClassImplicitStep.step. */
static inline vdouble implicit_step(const step_coefficients *c, vdouble z, vdouble u, vdouble xNorm2) {
  vdouble d = z - u;
  vdouble dError = two_sum_error(z, -u, d);
  vdouble logScale = c->logRate + vlog(xNorm2);
  vdouble t = d + logScale;
  vdouble tError = two_sum_error(d, logScale, t) + dError;
  vdouble a = wright_omega(t);
  vdouble step = a + tError * (a / (1 + a));
  return where(is_nan(d), d, where(xNorm2 == 0, broadcast(0), step));
}

/** A root of 2 eta N (1 - B e^-u) + 2 (u - u_old) = 0 moved outwards; SingleClassImplicitStep.closedFormRoot. */
static inline vdouble closed_form_root(const step_coefficients *c, vdouble logB, vdouble uOld, double direction) {
  double etaN = c->twoEtaN / 2;
  vdouble logEtaNB = log(etaN) + logB;
  vdouble t = logEtaNB + etaN - uOld;
  vdouble v = wright_omega(t);
  vdouble root = where(v < 1, (uOld - etaN) + v, logEtaNB - vlog(v));
  vdouble rounding = vabs(root) + vabs(logEtaNB) + 1 + (vabs(t) + etaN + vabs(uOld)) / (1 + v);
  return root + direction * BOUND_SLACK * rounding;
}

/** a / ||x||^2, or c e^(z-u-a) where a is subnormal or ||x||^2 = 0; SingleClassImplicitStep.pull. */
static inline vdouble implicit_pull(const step_coefficients *c, vdouble z, vdouble u, vdouble xNorm2, vdouble a) {
  vdouble d = z - u;
  vdouble small = c->rate * (vexp(d) * (1 + two_sum_error(z, -u, d)));
  return where(a >= DBL_MIN, a / xNorm2, small);
}

/**
 * The new u of each lane, the root of its g; NaN where z or u_old is not finite. Returns false if
 * MAX_EVALUATIONS pass before every lane has converged (a bug). SingleClassImplicitStep.newU.
 */
static inline bool implicit_new_u(const step_coefficients *c, vdouble z, vdouble uOld, vdouble xNorm2,
    vdouble *uNew) {
  vdouble logB = vsoftplus(c->logClassesMinusOne + z); /* log(1 + (K-1) e^z) */
  vlong done = ~((vabs(z) < INFINITY) & (vabs(uOld) < INFINITY));
  vdouble result = broadcast(NAN);
  vdouble lo = closed_form_root(c, broadcast(0), uOld, -1);
  vdouble hi = closed_form_root(c, logB, uOld, +1);
  vdouble loError = broadcast(NAN);
  vdouble below = broadcast(NAN);
  vdouble gBelow = broadcast(NAN);
  vdouble above = broadcast(NAN);
  vdouble gAbove = broadcast(NAN);
  vdouble u = uOld;
  for (int evaluation = 0; evaluation < MAX_EVALUATIONS; evaluation++) {
    if (!any(~done)) {
      *uNew = result;
      return true;
    }
    bool first = evaluation == 0;
    vdouble a = implicit_step(c, z, u, xNorm2);
    vdouble pull = implicit_pull(c, z, u, xNorm2, a);
    vdouble g = -c->twoEtaN * vexpm1(-u) - pull + 2 * (u - uOld);
    vlong root = ~done & (g == 0);
    result = where(root, u, result);
    done |= root;
    vdouble decay = c->twoEtaN * vexp(-u);
    vdouble slope = decay + pull / (1 + a) + 2;
    vdouble curvature = decay + pull / ((1 + a) * (1 + a)); /* |g''| */
    vlong negative = g < 0;
    if (first) { /* the paper's bracket for this sign of g(u_old) */
      hi = where(negative, java_min(hi, logB), hi);
      lo = where(negative, lo, java_max(lo, java_max(broadcast(0), c->logClassesMinusOne + z - c->twoEtaN * xNorm2)));
    }
    vdouble widthBefore = hi - lo;
    vlong raise = negative & (u > lo);
    lo = where(raise, u, lo);
    loError = where(raise, broadcast(NAN), loError);
    hi = where(negative, java_min(hi, u - g / 2), java_min(hi, u)); /* g' >= 2 */
    vlong finiteBelow = negative & (g > -INFINITY);
    below = where(finiteBelow, u, below);
    gBelow = where(finiteBelow, g, gBelow);
    above = where(negative, above, u);
    gAbove = where(negative, gAbove, g);
    /* Concave g: the chord's zero is an upper bound (NaN, and ignored, until both points exist). */
    vdouble secant = below - gBelow * ((above - below) / (gAbove - gBelow));
    hi = where(secant < hi, java_max(secant, lo), hi);
    vdouble newtonStep = -g / slope;
    vlong newtonBound = u + newtonStep > lo; /* concave g: the Newton point is a lower bound */
    lo = where(newtonBound, java_min(u + newtonStep, hi), lo);
    loError = where(newtonBound, curvature * newtonStep * newtonStep / slope, loError);
    vdouble width = hi - lo;
    vdouble scale = where(lo > 0, lo, where(hi < 0, -hi, broadcast(0)));
    vdouble tolerance = STEP_TOLERANCE * java_max(broadcast(1), scale);
    vlong converged = ~done & (width <= tolerance);
    result = where(converged, lo, result);
    done |= converged;
    vdouble midpoint = lo + width / 2;
    vdouble probe = where(is_nan(loError), where(lo == u, midpoint, lo),
        java_min(lo + java_max(loError, tolerance / 2), midpoint));
    if (first) {
      u = where(negative, hi, probe);
    } else {
      u = where(width > widthBefore / 2, midpoint, probe); /* the safeguard against slow progress */
    }
  }
  return false;
}

#endif
