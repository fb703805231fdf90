"""The error of quadrature rules for E[g(mu + sigma u)], u from the standard Gaussian or logistic
noise, g = log F or h = f/F: the integrals NoiseAugmentReduce takes over q(eps_n) in A&R probit and
logistic. Prints the largest absolute error against SciPy's adaptive quadrature for sigma <= 1,
1.5 and 3, over mu in {-2, 0, 2, 5} and psi_y - psi_k in -10..10, for the uniform trapezoid rule,
the sinh-mapped one NoiseAugmentReduce uses, and the Gauss rule of the noise density
(bench/log/2026-11-26.md, "The cost cut").

  /usr/bin/python3 ar_quadrature_error.py

Run with Debian's /usr/bin/python3 (python3-scipy).
"""

import numpy as np
from scipy import integrate, linalg, special, stats

FAMILIES = {
    "gaussian": (stats.norm.pdf, special.log_ndtr,
                 lambda z: np.exp(stats.norm.logpdf(z) - special.log_ndtr(z))),
    "logistic": (stats.logistic.pdf, lambda z: -np.logaddexp(0, -z),
                 lambda z: special.expit(-z)),
}


def normalised(u, w):
    return u, w / w.sum()


def uniform(pdf, half_width):
    u = np.arange(-3 * half_width, 3 * half_width + 1) / 3.0
    return normalised(u, pdf(u))


def sinh_mapped(pdf, scale, half):
    t = np.arange(-half, half + 1) * 0.2
    u = scale * np.sinh(t)
    return normalised(u, pdf(u) * np.cosh(t))


def gauss(family, n):
    """Golub-Welsch from the monic recurrence: beta_k = k for the standard Gaussian, and
    pi^2 k^4 / (4k^2 - 1) for the standard logistic density."""
    k = np.arange(1, n, dtype=float)
    beta = k if family == "gaussian" else np.pi**2 * k**4 / (4 * k * k - 1)
    x, v = linalg.eigh_tridiagonal(np.zeros(n), np.sqrt(beta))
    return x, v[0] ** 2


def main():
    cases = [(mu, s, c) for mu in (-2, 0, 2, 5)
             for s in (0.05, 0.1, 0.3, 0.5, 0.7, 1, 1.5, 2, 3)
             for c in np.linspace(-10, 10, 21)]
    for family, (pdf, log_cdf, hazard) in FAMILIES.items():
        gaussian = family == "gaussian"
        exact = {}
        for g in (log_cdf, hazard):
            exact[g] = [integrate.quad(lambda u: pdf(u) * g(mu + s * u + c), -np.inf, np.inf,
                                       epsabs=1e-15, epsrel=1e-13, limit=500)[0]
                        for mu, s, c in cases]
        rules = {
            "uniform": uniform(pdf, 7 if gaussian else 24),
            "sinh-mapped": sinh_mapped(pdf, 2 if gaussian else np.pi, 9 if gaussian else 12),
            "gauss": gauss(family, 20 if gaussian else 24),
        }
        for name, (u, w) in rules.items():
            worst = []
            for bound in (1, 1.5, 3):
                worst.append(max(abs((w * g(mu + s * u + c)).sum() - e)
                                 for g in (log_cdf, hazard)
                                 for (mu, s, c), e in zip(cases, exact[g]) if s <= bound))
            print("%-8s %-11s %3d nodes  sigma<=1 %.1e  sigma<=1.5 %.1e  sigma<=3 %.1e"
                  % (family, name, len(u), *worst))


if __name__ == "__main__":
    main()
