package org.largecat.bench;

import org.largecat.kernel.Kernels;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The backend a benchmark runs on, so the backends of one kernel are measured side by side in one
 * run. A backend that cannot run here fails its own parameter with the reason; the rest go on.
 */
@State(Scope.Benchmark)
public class BackendState {
  @Param({"scalar", "simd", "blas", "jblas", "native"})
  public String backend;

  public Kernels kernels;

  @Setup
  public void select() {
    kernels = Kernels.of(backend);
    String detail = Kernels.catalog().entry(backend).detail();
    System.out.println("\n[largecat] backend=" + backend + ": " + kernels.describeChoice()
        + (detail == null ? "" : "; " + backend + " uses " + detail));
  }
}
