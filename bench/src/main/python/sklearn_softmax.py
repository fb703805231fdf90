"""scikit-learn's LogisticRegression(solver="lbfgs") on fashion-mnist, and the objective of a model
on it, for bench/exact-softmax-vs-sklearn.sh.

The objective is largecat's exact-softmax one: mean log-likelihood - (|W|^2 + |b|^2) / (2 V N), in
float64. scikit-learn fits the pixels / 255 (as float32, as `largecat data prepare` writes them) with
a column of ones appended and no intercept, so that its penalty |W|^2 / (2 C N) covers the biases as
largecat's prior does; with C = V both minimise the same function.

  python3 sklearn_softmax.py fit V MAX_ITER TOL      prints {"seconds", "iterations", "objective"}
  python3 sklearn_softmax.py score V MODEL           prints {"objective"} of a largecat model file

Run with Debian's /usr/bin/python3 (python3-sklearn) and dataset-fashion-mnist installed.
"""

import gzip
import json
import struct
import sys
import time
import warnings

import numpy as np

IMAGES = "/usr/share/datasets/fashion-mnist/"


def idx(name):
    with gzip.open(IMAGES + name) as f:
        data = f.read()
    dims = data[3]
    shape = struct.unpack(">" + "I" * dims, data[4 : 4 + 4 * dims])
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def training_set():
    x = idx("train-images-idx3-ubyte.gz").reshape(60000, -1).astype(np.float32) / np.float32(255)
    return x.astype(np.float64), idx("train-labels-idx1-ubyte.gz").astype(np.int64)


def objective(w, b, x, y, v):
    scores = x @ w.T + b
    top = scores.max(axis=1, keepdims=True)
    log_norm = top[:, 0] + np.log(np.exp(scores - top).sum(axis=1))
    n = x.shape[0]
    penalty = ((w**2).sum() + (b**2).sum()) / (2 * v * n)
    return (scores[np.arange(n), y] - log_norm).mean() - penalty


def read_model(path):
    """A largecat model file: magic, version, link, K, D, float weights, double biases (big-endian)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"LCATMDL1", path + ": not a largecat model file"
    at = 12
    (link_length,) = struct.unpack(">H", data[at : at + 2])
    at += 2 + link_length
    k, d = struct.unpack(">ii", data[at : at + 8])
    at += 8
    w = np.frombuffer(data, dtype=">f4", count=k * d, offset=at).astype(np.float64).reshape(k, d)
    b = np.frombuffer(data, dtype=">f8", count=k, offset=at + 4 * k * d).astype(np.float64)
    return w, b


def main():
    mode, v = sys.argv[1], float(sys.argv[2])
    x, y = training_set()
    if mode == "score":
        w, b = read_model(sys.argv[3])
        print(json.dumps({"objective": objective(w, b, x, y, v)}))
        return
    from sklearn.linear_model import LogisticRegression

    max_iter, tol = int(sys.argv[3]), float(sys.argv[4])
    with_ones = np.hstack([x, np.ones((x.shape[0], 1))])
    model = LogisticRegression(
        C=v, fit_intercept=False, solver="lbfgs", max_iter=max_iter, tol=tol, multi_class="multinomial"
    )
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(with_ones, y)
    seconds = time.perf_counter() - start
    w, b = model.coef_[:, :-1], model.coef_[:, -1]
    print(json.dumps({"seconds": seconds, "iterations": int(model.n_iter_[0]), "objective": objective(w, b, x, y, v)}))


if __name__ == "__main__":
    main()
