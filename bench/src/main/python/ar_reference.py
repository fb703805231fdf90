"""Moves data and models between largecat and the A&R authors' MATLAB/C++ code
(github franrruiz/augment-reduce), for comparisons like those of bench/log/2026-11-26.md (A&R against
the reference code); bench/src/main/octave/ar_reference_run.m runs that code.

  python3 ar_reference.py tomat TRAIN TEST OUT.mat        largecat text files (0-based) -> the code's
                                                          `data` struct: X, test.X sparse N x D,
                                                          Y, test.Y in 1..K
  python3 ar_reference.py tomodel W.txt B.txt LINK OUT    the code's weights (D x K) and biases
                                                          (1 x K), comma-separated -> a largecat
                                                          model file (LINK: softmax, probit, logistic)

Run with Debian's /usr/bin/python3 (python3-scipy).
"""

import struct
import sys
import zlib

import numpy as np
import scipy.io
import scipy.sparse


def read_text(path):
    """The Extreme Classification text format: header N D K, then `label f:v f:v ...`."""
    with open(path) as f:
        n, d, _ = map(int, f.readline().split())
        rows, cols, vals, labels = [], [], [], []
        for i, line in enumerate(f):
            parts = line.split()
            labels.append(int(parts[0].split(",")[0]))
            for p in parts[1:]:
                c, v = p.split(":")
                rows.append(i)
                cols.append(int(c))
                vals.append(float(v))
    x = scipy.sparse.csc_matrix((vals, (rows, cols)), shape=(n, d), dtype=np.float64)
    return x, np.array(labels, dtype=np.float64).reshape(-1, 1) + 1


def tomat(train, test, out):
    x, y = read_text(train)
    tx, ty = read_text(test)
    data = {"X": x, "Y": y, "test": {"X": tx, "Y": ty}}
    scipy.io.savemat(out, {"data": data}, do_compression=False)


def tomodel(wfile, bfile, link, out):
    """ModelFile's layout: magic, version, link, K, D, weights (float, row k), biases (double), CRC."""
    w = np.loadtxt(wfile, delimiter=",", ndmin=2)
    b = np.loadtxt(bfile, delimiter=",", ndmin=1)
    d, k = w.shape
    if b.shape != (k,):
        sys.exit(f"{bfile}: {b.size} biases for {k} classes")
    name = link.upper().encode()
    body = struct.pack(">qiH", 0x4C4341544D444C31, 1, len(name)) + name + struct.pack(">ii", k, d)
    body += w.T.astype(">f4").tobytes() + b.astype(">f8").tobytes()
    with open(out, "wb") as f:
        f.write(body + struct.pack(">I", zlib.crc32(body)))


if __name__ == "__main__":
    commands = {"tomat": (tomat, 3), "tomodel": (tomodel, 4)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) != 2 + commands[sys.argv[1]][1]:
        sys.exit(__doc__)
    commands[sys.argv[1]][0](*sys.argv[2:])
