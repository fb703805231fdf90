package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.kernel.BackendCatalog;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;
import org.largecat.special.TruncatedNormal;
import org.largecat.special.TruncationSide;

class KernelsCommandTest {

  private static CommandRun run(String input, String... args) throws Exception {
    return CommandRun.withInput(input, args);
  }

  @Test
  void listingNamesEveryBackendAndAutosChoicePerFamily() throws Exception {
    CommandRun r = run("", "kernels");
    assertEquals(0, r.status(), r.err());
    for (String backend : new String[] {"native", "simd", "blas", "scalar"}) {
      assertTrue(r.out().contains("\n" + backend + " "), r.out());
    }
    for (KernelFamily f : KernelFamily.values()) {
      assertTrue(r.out().contains(f.label() + " "), r.out());
    }
  }

  @Test
  void listingSaysWhatEachBackendLoaded() throws Exception {
    CommandRun r = run("", "kernels");
    assertEquals(0, r.status(), r.err());
    for (BackendCatalog.Entry e : Kernels.catalog().entries()) {
      if (e.detail() != null) {
        assertTrue(r.out().contains(e.detail()), e.name() + " detail missing from\n" + r.out());
      }
    }
  }

  /**
   * The BLAS backends implement no special functions: forcing one evaluates them on the backend
   * auto picks.
   */
  @Test
  void evalOnTheBlasBackendGivesTheValuesOfTheBackendItInherits() throws Exception {
    String input = "-40\n-1.5\n0.25\n700\n";
    CommandRun blas = run(input, "kernels", "eval", "normal-logcdf", "--backend", "blas");
    assertEquals(0, blas.status(), blas.err());
    assertTrue(
        blas.err()
            .contains(
                "special-functions="
                    + Kernels.of("auto").backendOf(KernelFamily.SPECIAL_FUNCTIONS)),
        blas.err());
    assertEquals(run(input, "kernels", "eval", "normal-logcdf").out(), blas.out());
  }

  @Test
  void elementwiseFunctionsPrintTheKernelValuesRoundTripExact() throws Exception {
    String[][] cases = {
      {"normal-logcdf", "NORMAL_LOG_CDF"},
      {"normal-mills", "NORMAL_MILLS_RATIO"},
      {"log-sigmoid", "LOG_SIGMOID"},
      {"lambertw0", "LAMBERT_W0"},
      {"wright-omega", "WRIGHT_OMEGA"},
      {"pg-mean", "POLYA_GAMMA_MEAN"}
    };
    double[] x = {-40, -1.5, 0, 0.25, 3, 700};
    StringBuilder input = new StringBuilder();
    for (double v : x) {
      input.append(v).append('\n');
    }
    for (String[] c : cases) {
      CommandRun r = run(input.toString(), "kernels", "eval", c[0], "--backend", "scalar");
      assertEquals(0, r.status(), r.err());
      String[] lines = r.out().split("\n");
      assertEquals(x.length, lines.length, r.out());
      ElementwiseFunction f = ElementwiseFunction.valueOf(c[1]);
      for (int i = 0; i < x.length; i++) {
        assertEquals(Double.toString(f.reference(x[i])), lines[i], c[0] + " at " + x[i]);
      }
    }
  }

  @Test
  void truncnormGivesMeanVarianceEntropyPerSideInInputOrder() throws Exception {
    CommandRun r = run("0.5 1\n-3 -1\n2e5 -1\n", "kernels", "eval", "truncnorm");
    assertEquals(0, r.status(), r.err());
    String[] lines = r.out().split("\n");
    double[][] in = {{0.5, 1}, {-3, -1}, {2e5, -1}};
    for (int i = 0; i < in.length; i++) {
      TruncationSide side = TruncationSide.ofSign((int) in[i][1]);
      String expected =
          TruncatedNormal.mean(in[i][0], side)
              + "\t"
              + TruncatedNormal.variance(in[i][0], side)
              + "\t"
              + TruncatedNormal.entropy(in[i][0], side);
      assertEquals(expected, lines[i]);
    }
  }

  @Test
  void isgdUpdateBatchesByParametersAndKeepsInputOrder() throws Exception {
    String input = "1.5 0.5 2 0.1 1000 50\n-2 1 0.5 0.01 10 2\n0.3 0.2 1 0.1 1000 50\n";
    CommandRun r = run(input, "kernels", "eval", "isgd-update");
    assertEquals(0, r.status(), r.err());
    String[] lines = r.out().split("\n");
    assertEquals(3, lines.length);
    double[] u = new double[1];
    double[] a = new double[1];
    Kernels.of("scalar")
        .implicitUpdates()
        .softmaxSingleClass(
            1,
            new double[] {-2},
            0,
            new double[] {1},
            0,
            new double[] {0.5},
            0,
            0.01,
            10,
            2,
            u,
            0,
            a,
            0);
    assertEquals(u[0] + "\t" + a[0], lines[1]);
  }

  @Test
  void malformedLinesAreNamedAndNothingIsEvaluated() throws Exception {
    CommandRun r = run("1\n2 3\nabc\n\n1e5x\n4\n", "kernels", "eval", "pg-mean");
    assertEquals(2, r.status());
    assertEquals("", r.out());
    for (String line : new String[] {"line 2:", "line 3: 'abc'", "line 4:", "line 5: '1e5x'"}) {
      assertTrue(r.err().contains(line), r.err());
    }
    assertTrue(!r.err().contains("line 1:") && !r.err().contains("line 6:"), r.err());
  }

  @Test
  void invalidParametersAreNamedByLine() throws Exception {
    CommandRun side = run("0.5 1\n0.5 0\n", "kernels", "eval", "truncnorm");
    assertEquals(2, side.status());
    assertTrue(side.err().contains("line 2: side must be 1"), side.err());
    CommandRun isgd = run("1 1 1 0.1 1000 1\n", "kernels", "eval", "isgd-update");
    assertEquals(2, isgd.status());
    assertTrue(isgd.err().contains("line 1: K must be"), isgd.err());
  }

  @Test
  void specialValuesAreAcceptedAndPrintedAsJavaDoes() throws Exception {
    CommandRun r = run("nan\n-inf\n+Infinity\n", "kernels", "eval", "log-sigmoid");
    assertEquals(0, r.status(), r.err());
    assertEquals("NaN\n-Infinity\n0.0\n", r.out().replace("-0.0", "0.0"));
  }

  @Test
  void unknownFunctionOrBackendIsAUsageError() throws Exception {
    assertEquals(2, run("", "kernels", "eval", "erf").status());
    CommandRun r = run("1\n", "kernels", "eval", "pg-mean", "--backend", "gpu");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("unknown largecat backend 'gpu'"), r.err());
    assertEquals(2, run("", "train").status());
  }
}
