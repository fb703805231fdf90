#!/usr/bin/python3
"""The exact optimum of the objective the double-sum trainers minimise, by two independent solvers.

F(W) = -(1/N) sum_n log softmax(W x~_n)_{y_n} + (mu/2) ||W||^2 over the extended rows w~_k = (w_k, b_k)
and x~ = (x, 1): the biases are penalised as the weights are. Reads a data file in largecat's text
format (header "N D K", then "label f:v f:v ..."), values as the float32 largecat holds, and prints
the optimum's F and mean training log-likelihood from scipy's L-BFGS on the exact gradient and from
scikit-learn's multinomial LogisticRegression (no intercept, a constant column, C = 1/(mu N)).

Usage: /usr/bin/python3 ridge_optimum.py DATA MU > expected.properties
"""
import sys

import numpy as np
import scipy.optimize
import scipy.special
import sklearn
from sklearn.linear_model import LogisticRegression


def read(path):
    with open(path) as f:
        n, d, k = (int(v) for v in f.readline().split())
        x = np.zeros((n, d), dtype=np.float32)
        y = np.zeros(n, dtype=np.int64)
        for i in range(n):
            fields = f.readline().split()
            y[i] = int(fields[0])
            for pair in fields[1:]:
                j, v = pair.split(":")
                x[i, int(j)] = np.float32(v)
    extended = np.hstack([x.astype(np.float64), np.ones((n, 1))])
    return extended, y, k


def objective(theta, x, y, k, mu):
    w = theta.reshape(k, x.shape[1])
    scores = x @ w.T
    log_p = scores - scipy.special.logsumexp(scores, axis=1, keepdims=True)
    n = x.shape[0]
    log_likelihood = log_p[np.arange(n), y].mean()
    p = np.exp(log_p)
    p[np.arange(n), y] -= 1
    gradient = p.T @ x / n + mu * w
    return -log_likelihood + mu / 2 * np.sum(w * w), gradient.ravel(), log_likelihood


def main():
    path, mu = sys.argv[1], float(sys.argv[2])
    x, y, k = read(path)
    n, width = x.shape
    result = scipy.optimize.minimize(
        lambda t: objective(t, x, y, k, mu)[:2],
        np.zeros(k * width),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 100000, "maxfun": 200000, "gtol": 1e-10, "ftol": 1e-15, "maxcor": 30},
    )
    scipy_f, gradient, scipy_ll = objective(result.x, x, y, k, mu)
    model = LogisticRegression(
        C=1 / (mu * n), fit_intercept=False, multi_class="multinomial", solver="lbfgs",
        tol=1e-12, max_iter=100000)
    model.fit(x, y)
    sklearn_f, _, sklearn_ll = objective(model.coef_.ravel(), x, y, k, mu)
    print(f"# {path}: N = {n}, D = {width - 1}, K = {k}, mu = {mu}")
    print(f"# scipy {scipy.__version__} L-BFGS-B: {result.message}, |grad|_inf = {np.abs(gradient).max():.2e}")
    print(f"# scikit-learn {sklearn.__version__}: F = {sklearn_f:.10f}, log-likelihood = {sklearn_ll:.10f}")
    print(f"ridge = {mu}")
    print(f"objective = {scipy_f:.10f}")
    print(f"log_likelihood = {scipy_ll:.10f}")
    if abs(sklearn_f - scipy_f) > 1e-7 * abs(scipy_f):
        sys.exit(f"the two solvers disagree: F = {scipy_f} (scipy), {sklearn_f} (scikit-learn)")


if __name__ == "__main__":
    main()
