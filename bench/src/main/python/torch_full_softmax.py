"""PyTorch's full-softmax cross-entropy step at largecat's FullSoftmaxStepBenchmark shape.

Logits X_B W^T + b, cross-entropy (log-softmax over all K), backward (the weight gradient is one
gemm; X needs none), plain SGD update; data and initial weights drawn as the benchmark does (x
standard normal, W ~ N(0, 0.01^2)), on THREADS threads. Prints one JSON line: the median step time
over STEPS steps after WARMUP, and examples per second.

usage: /usr/bin/python3 torch_full_softmax.py THREADS [STEPS] [WARMUP]
"""
import json
import statistics
import sys
import time

import torch

K, D, B, N = 10_000, 784, 500, 10_000


def main():
    threads = int(sys.argv[1])
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    torch.set_num_threads(threads)
    generator = torch.Generator().manual_seed(42)
    x = torch.randn(N, D, generator=generator)
    y = torch.randint(0, K, (N,), generator=generator)
    w = (0.01 * torch.randn(K, D, generator=generator)).requires_grad_()
    b = torch.zeros(K, requires_grad=True)
    optimiser = torch.optim.SGD([w, b], lr=0.01)
    times = []
    for step in range(warmup + steps):
        start = (step * B) % N
        xb, yb = x[start:start + B], y[start:start + B]
        began = time.perf_counter()
        optimiser.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(torch.addmm(b, xb, w.t()), yb)
        loss.backward()
        optimiser.step()
        if step >= warmup:
            times.append(time.perf_counter() - began)
    median = statistics.median(times)
    print(json.dumps({"peer": "pytorch " + torch.__version__, "threads": threads,
                      "median_step_ms": round(1e3 * median, 3),
                      "examples_per_second": round(B / median, 1)}))


if __name__ == "__main__":
    main()
