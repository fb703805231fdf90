"""Reference fit for org.largecat.train.fullbatch.ReferenceFitTest: a small softmax problem and its
MAP optimum, found independently of largecat by Newton's method in float64.

Writes, beside this script:
  reference-data.txt  N = 300 examples, D = 5 dense features, K = 4 classes, in largecat's text
                      format (header "N D K", then "label f:v ..."); each value is a float32 written
                      with 9 significant digits, so that Java reads back exactly the value fitted here
  reference-fit.txt   the prior variance V, the optimal objective, and the optimal weights (K rows
                      of D) and biases (K), each to 17 significant digits

The objective is largecat's: the mean per-example log-likelihood of the softmax model
p(y | x) = softmax(W x + b)_y, minus (|W|^2 + |b|^2) / (2 V N), the log of a N(0, V) prior on every
weight and bias divided by N, without its constant. It is strictly concave, so Newton's method with a
backtracking line search converges to its one maximum; the script stops at a gradient below 1e-13,
checks that the Hessian is negative definite there and that scipy's L-BFGS-B reaches the same value.

Run with Debian's python3 (numpy): /usr/bin/python3 make_reference_fit.py
"""

import os

import numpy as np

N, D, K = 300, 5, 4
PRIOR_VARIANCE = 10.0
SEED = 20240521
HERE = os.path.dirname(os.path.abspath(__file__))


def make_problem():
    rng = np.random.RandomState(SEED)
    x = rng.normal(size=(N, D)).astype(np.float32)
    w = rng.normal(scale=1.5, size=(K, D))
    b = rng.normal(scale=0.5, size=K)
    scores = x.astype(np.float64) @ w.T + b
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    labels = np.array([rng.choice(K, p=row) for row in p])
    return x, labels


def design(x):
    """The features with a trailing 1, so that theta = [W | b] is one K x (D + 1) matrix."""
    return np.hstack([x.astype(np.float64), np.ones((x.shape[0], 1))])


def objective(theta, z, y):
    """Returns the objective, its gradient and its Hessian in theta (K x (D + 1), row-major)."""
    n = z.shape[0]
    scores = z @ theta.T
    top = scores.max(axis=1, keepdims=True)
    log_norm = top[:, 0] + np.log(np.exp(scores - top).sum(axis=1))
    p = np.exp(scores - log_norm[:, None])
    onehot = np.eye(K)[y]
    value = (scores[np.arange(n), y] - log_norm).mean() - (theta**2).sum() / (2 * PRIOR_VARIANCE * n)
    gradient = (onehot - p).T @ z / n - theta / (PRIOR_VARIANCE * n)
    # The Hessian of -log-likelihood per example is (diag(p) - p p^T) kron z z^T.
    size = theta.size
    hessian = np.zeros((size, size))
    for i in range(n):
        cov = np.diag(p[i]) - np.outer(p[i], p[i])
        hessian -= np.kron(cov, np.outer(z[i], z[i]))
    hessian = hessian / n - np.eye(size) / (PRIOR_VARIANCE * n)
    return value, gradient, hessian


def newton(z, y):
    theta = np.zeros((K, z.shape[1]))
    for iteration in range(100):
        value, gradient, hessian = objective(theta, z, y)
        if np.abs(gradient).max() < 1e-13:
            return theta, value, hessian, iteration
        step = np.linalg.solve(hessian, -gradient.ravel()).reshape(theta.shape)
        alpha = 1.0
        while objective(theta + alpha * step, z, y)[0] < value + 1e-4 * alpha * (gradient * step).sum():
            alpha /= 2
        theta = theta + alpha * step
    raise RuntimeError("Newton did not converge")


def check_with_scipy(z, y, value):
    """A second, independent optimiser must reach the same maximum."""
    from scipy.optimize import minimize

    def loss(flat):
        v, g, _ = objective(flat.reshape(K, -1), z, y)
        return -v, -g.ravel()

    fit = minimize(loss, np.zeros(K * z.shape[1]), jac=True, method="L-BFGS-B",
                   options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10000})
    assert abs(-fit.fun - value) <= 1e-12 * abs(value), (fit.fun, value)


def main():
    x, labels = make_problem()
    with open(os.path.join(HERE, "reference-data.txt"), "w") as out:
        out.write(f"{N} {D} {K}\n")
        for row, label in zip(x, labels):
            out.write(str(label) + "".join(f" {j}:{v:.9g}" for j, v in enumerate(row)) + "\n")
    theta, value, hessian, iterations = newton(design(x), labels)
    assert np.linalg.eigvalsh(hessian).max() < 0, "the Hessian is not negative definite"
    check_with_scipy(design(x), labels, value)
    with open(os.path.join(HERE, "reference-fit.txt"), "w") as out:
        out.write(f"# made by make_reference_fit.py: Newton, {iterations} steps; scipy L-BFGS-B agrees\n")
        out.write(f"prior_variance {PRIOR_VARIANCE!r}\n")
        out.write(f"objective {value:.17g}\n")
        for k in range(K):
            out.write("weights " + " ".join(f"{v:.17g}" for v in theta[k, :D]) + "\n")
        out.write("biases " + " ".join(f"{v:.17g}" for v in theta[:, D]) + "\n")


if __name__ == "__main__":
    main()
