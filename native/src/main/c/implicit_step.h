/*
 * The C port of org.largecat.kernel.scalar.SingleClassImplicitStep: one Implicit SGD step of the
 * double-sum softmax for one datapoint and one sampled class (Fagan and Iyengar, App. F.1), solved
 * by the same bracketed, safeguarded Newton iteration on the concave g(u), with the same bracket,
 * probes and stopping rule; the Java class gives the derivation and the bound on evaluations.
 * Java's Math.min / Math.max (NaN wins, -0 below +0) are spelled out where the port needs them.
 */
#ifndef LARGECAT_IMPLICIT_STEP_H
#define LARGECAT_IMPLICIT_STEP_H

#include <float.h>
#include <math.h>
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

static inline double java_min(double a, double b) {
  if (isnan(a) || isnan(b)) {
    return a + b;
  }
  if (a == b) {
    return signbit(a) ? a : b;
  }
  return a < b ? a : b;
}

static inline double java_max(double a, double b) {
  if (isnan(a) || isnan(b)) {
    return a + b;
  }
  if (a == b) {
    return signbit(a) ? b : a;
  }
  return a > b ? a : b;
}

/** log(1 + e^x): one lane of the vector softplus of logistic.h. */
static inline double softplus(double x) {
  return vsoftplus(broadcast(x))[0];
}

/** The rounding error of s = x + y, exactly (Knuth's TwoSum). */
static inline double two_sum_error(double x, double y, double s) {
  double yPart = s - x;
  return (x - (s - yPart)) + (y - yPart);
}

/** a(u) = W0(c ||x||^2 e^(z-u)) with the exponent as a double-double; SingleClassImplicitStep.step. */
static inline double implicit_step(const step_coefficients *c, double z, double u, double xNorm2) {
  double d = z - u;
  if (isnan(d) || xNorm2 == 0) {
    return isnan(d) ? NAN : 0;
  }
  double dError = two_sum_error(z, -u, d);
  double logScale = c->logRate + log(xNorm2);
  double t = d + logScale;
  double tError = two_sum_error(d, logScale, t) + dError;
  double a = lambert_w0_of_exp(t);
  return a + tError * (a / (1 + a));
}

/** A root of 2 eta N (1 - B e^-u) + 2 (u - u_old) = 0 moved outwards; SingleClassImplicitStep.closedFormRoot. */
static inline double closed_form_root(const step_coefficients *c, double logB, double uOld, int direction) {
  double etaN = c->twoEtaN / 2;
  double logEtaNB = log(etaN) + logB;
  double t = logEtaNB + etaN - uOld;
  double v = lambert_w0_of_exp(t);
  double root = v < 1 ? (uOld - etaN) + v : logEtaNB - log(v);
  double rounding = fabs(root) + fabs(logEtaNB) + 1 + (fabs(t) + etaN + fabs(uOld)) / (1 + v);
  return root + direction * BOUND_SLACK * rounding;
}

/** a / ||x||^2, or c e^(z-u-a) where a is subnormal or ||x||^2 = 0; SingleClassImplicitStep.pull. */
static inline double implicit_pull(const step_coefficients *c, double z, double u, double xNorm2, double a) {
  if (a >= DBL_MIN) {
    return a / xNorm2;
  }
  double d = z - u;
  return c->rate * (exp(d) * (1 + two_sum_error(z, -u, d)));
}

/**
 * The new u, the root of g, into *uNew; NaN if z or u_old is not finite. Returns false, leaving
 * *uNew unset, only if MAX_EVALUATIONS pass without convergence. SingleClassImplicitStep.newU.
 */
static inline bool implicit_new_u(const step_coefficients *c, double z, double uOld, double xNorm2, double *uNew) {
  if (!isfinite(z) || !isfinite(uOld)) {
    *uNew = NAN;
    return true;
  }
  double lo = closed_form_root(c, 0, uOld, -1);
  double hi = closed_form_root(c, softplus(c->logClassesMinusOne + z), uOld, +1);
  double loError = NAN;
  double below = NAN;
  double gBelow = NAN;
  double above = NAN;
  double gAbove = NAN;
  double u = uOld;
  for (int evaluation = 0; evaluation < MAX_EVALUATIONS; evaluation++) {
    bool first = evaluation == 0;
    double a = implicit_step(c, z, u, xNorm2);
    double pull = implicit_pull(c, z, u, xNorm2, a);
    double g = -c->twoEtaN * expm1(-u) - pull + 2 * (u - uOld);
    if (g == 0) {
      *uNew = u;
      return true;
    }
    double slope = c->twoEtaN * exp(-u) + pull / (1 + a) + 2;
    double curvature = c->twoEtaN * exp(-u) + pull / ((1 + a) * (1 + a));
    if (first) {
      if (g < 0) {
        hi = java_min(hi, softplus(c->logClassesMinusOne + z));
      } else {
        lo = java_max(lo, java_max(0, c->logClassesMinusOne + z - c->twoEtaN * xNorm2));
      }
    }
    double widthBefore = hi - lo;
    if (g < 0) {
      if (u > lo) {
        lo = u;
        loError = NAN;
      }
      hi = java_min(hi, u - g / 2);
      if (g > -INFINITY) {
        below = u;
        gBelow = g;
      }
    } else {
      hi = java_min(hi, u);
      above = u;
      gAbove = g;
    }
    double secant = below - gBelow * ((above - below) / (gAbove - gBelow));
    if (secant < hi) {
      hi = java_max(secant, lo);
    }
    double newtonStep = -g / slope;
    if (u + newtonStep > lo) {
      lo = java_min(u + newtonStep, hi);
      loError = curvature * newtonStep * newtonStep / slope;
    }
    double width = hi - lo;
    double tolerance = STEP_TOLERANCE * java_max(1, lo > 0 ? lo : hi < 0 ? -hi : 0);
    if (width <= tolerance) {
      *uNew = lo;
      return true;
    }
    double midpoint = lo + width / 2;
    if (!first && width > widthBefore / 2) {
      u = midpoint;
    } else if (first && g < 0) {
      u = hi;
    } else if (!isnan(loError)) {
      u = java_min(lo + java_max(loError, tolerance / 2), midpoint);
    } else {
      u = lo == u ? midpoint : lo;
    }
  }
  return false;
}

#endif
