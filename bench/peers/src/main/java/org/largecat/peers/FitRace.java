package org.largecat.peers;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.largecat.data.Dataset;
import org.largecat.fit.Fit;
import org.largecat.fit.Fitter;
import org.largecat.train.Method;
import smile.math.BFGS;
import smile.util.function.DifferentiableMultivariateFunction;

/**
 * {@code fit-race K}: largecat's default fit and its exact fit under Smile's penalty, then Smile's
 * multinomial fit followed iteration by iteration, in one JVM on the same data. Smile's own objective (its package-private {@code
 * MultinomialObjective}, reached by reflection) is minimised by its own {@code BFGS.minimize} with
 * the arguments {@code LogisticRegression.multinomial} passes (history 5, its tolerance and
 * iteration cap), so the run is Smile's fit; only the clock stops while the harness scores the
 * current weights on the test rows after each gradient. Prints wall and process CPU seconds for
 * each, and when Smile first reached each of largecat's test log-likelihoods, if it did.
 */
final class FitRace {
  private FitRace() {}

  static void run(Map<String, String> o) throws Exception {
    int k = Integer.parseInt(o.get("classes"));
    double lambda = Double.parseDouble(o.get("smile-lambda"));
    int maxIter = Integer.parseInt(o.get("smile-max-iter"));
    PeerData d = PeerData.generate(Long.parseLong(o.get("seed")), k, PeerBench.COLUMNS, PeerBench.ROWS, PeerBench.TEST_ROWS);
    requireAllClasses(d.y, k);
    System.out.printf(Locale.ROOT, "K = %d, generating model's test ll %.5f%n", k, d.truthLogLikelihood);

    Dataset train = Dataset.dense(d.x, d.y, k);
    Dataset test = Dataset.dense(d.xTest, d.yTest, k);
    // largecat's defaults, and its exact fit under Smile's penalty: ½λ‖W‖² on the summed
    // log-likelihood is a N(0, 1/λ) prior.
    Fitter[] fitters = {
      Fitter.softmax().seed(1),
      Fitter.softmax().seed(1).method(Method.EXACT_SOFTMAX).priorVariance(1 / lambda)
    };
    String[] names = {"defaults", "exact-softmax, prior variance 1/lambda"};
    double[] lcWall = new double[fitters.length];
    double[] lcCpu = new double[fitters.length];
    double[] lcLl = new double[fitters.length];
    for (int f = 0; f < fitters.length; f++) {
      long wall0 = System.nanoTime();
      long cpu0 = cpuNanos();
      Fit fit = fitters[f].fit(train);
      lcWall[f] = (System.nanoTime() - wall0) * 1e-9;
      lcCpu[f] = (cpuNanos() - cpu0) * 1e-9;
      lcLl[f] = Libraries.largecatLogLikelihood(fit.classifier(), test);
      System.out.printf(
          Locale.ROOT,
          "largecat %s: %s %s, prior variance %s, %.2f s wall, %.2f s CPU, test ll %.5f%n",
          names[f],
          fit.method().label(),
          fit.stoppedBecause(),
          fit.prior().variance(),
          lcWall[f],
          lcCpu[f],
          lcLl[f]);
    }

    double[][] x = PeerData.toDouble(d.x);
    double[][] xTest = PeerData.toDouble(d.xTest);
    Traced smile = new Traced(smileObjective(x, d.y, k, lambda), xTest, d.yTest, k, lcLl);
    double[] w = new double[(k - 1) * (PeerBench.COLUMNS + 1)];
    smile.start();
    double objective = BFGS.minimize(smile, 5, w, 1e-5, maxIter);
    System.out.printf(
        Locale.ROOT,
        "smile lambda %s: %d gradients, %.2f s wall, %.2f s CPU, objective %.6g, test ll %.5f (best %.5f)%n",
        lambda,
        smile.gradients,
        smile.wall,
        smile.cpu,
        objective,
        smile.lastLl,
        smile.bestLl);
    for (int f = 0; f < fitters.length; f++) {
      System.out.printf(
          Locale.ROOT,
          "largecat %s reached %.5f in %.2f s wall, %.2f s CPU; smile's whole fit took %.2f× /"
              + " %.2f× that%s%n",
          names[f],
          lcLl[f],
          lcWall[f],
          lcCpu[f],
          smile.wall / lcWall[f],
          smile.cpu / lcCpu[f],
          smile.reachedWall[f] >= 0
              ? String.format(
                  Locale.ROOT,
                  "; smile first reached it after %.2f s wall, %.2f s CPU",
                  smile.reachedWall[f],
                  smile.reachedCpu[f])
              : "; smile never reached it");
    }
  }

  private static void requireAllClasses(int[] y, int k) {
    boolean[] seen = new boolean[k];
    for (int c : y) {
      seen[c] = true;
    }
    for (int c = 0; c < k; c++) {
      if (!seen[c]) {
        throw new IllegalStateException("class " + c + " has no training row: Smile would renumber the classes");
      }
    }
  }

  private static DifferentiableMultivariateFunction smileObjective(double[][] x, int[] y, int k, double lambda)
      throws ReflectiveOperationException {
    Class<?> c = Class.forName("smile.classification.LogisticRegression$MultinomialObjective");
    Constructor<?> make = c.getDeclaredConstructor(double[][].class, int[].class, int.class, double.class);
    make.setAccessible(true);
    return (DifferentiableMultivariateFunction) make.newInstance(x, y, k, lambda);
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Smile's objective with a clock that stops while the weights are scored on the test rows. */
  private static final class Traced implements DifferentiableMultivariateFunction {
    private final DifferentiableMultivariateFunction inner;
    private final double[][] xTest;
    private final int[] yTest;
    private final int k;
    private final double[] targets;
    private long wallStart;
    private long cpuStart;
    int gradients;
    double wall;
    double cpu;
    double lastLl = Double.NaN;
    double bestLl = Double.NEGATIVE_INFINITY;
    final double[] reachedWall;
    final double[] reachedCpu;

    Traced(
        DifferentiableMultivariateFunction inner, double[][] xTest, int[] yTest, int k, double[] targets) {
      this.inner = inner;
      this.xTest = xTest;
      this.yTest = yTest;
      this.k = k;
      this.targets = targets;
      reachedWall = new double[targets.length];
      reachedCpu = new double[targets.length];
      Arrays.fill(reachedWall, -1);
      Arrays.fill(reachedCpu, -1);
    }

    void start() {
      wallStart = System.nanoTime();
      cpuStart = cpuNanos();
    }

    @Override
    public double f(double[] w) {
      return inner.f(w);
    }

    @Override
    public double g(double[] w, double[] g) {
      double value = inner.g(w, g);
      wall += (System.nanoTime() - wallStart) * 1e-9;
      cpu += (cpuNanos() - cpuStart) * 1e-9;
      gradients++;
      lastLl = testLogLikelihood(w);
      bestLl = Math.max(bestLl, lastLl);
      for (int t = 0; t < targets.length; t++) {
        if (reachedWall[t] < 0 && lastLl >= targets[t]) {
          reachedWall[t] = wall;
          reachedCpu[t] = cpu;
        }
      }
      if (gradients % 10 == 0) {
        System.out.printf(
            Locale.ROOT, "  smile gradient %d: %.1f s wall, %.1f s CPU, test ll %.5f%n", gradients, wall, cpu, lastLl);
      }
      start();
      return value;
    }

    /** Smile's model: class k − 1 scores 0, class j scores w_j·x + b_j with b_j at w[j(p+1)+p]. */
    private double testLogLikelihood(double[] w) {
      int p = xTest[0].length;
      double[] z = new double[k];
      double sum = 0;
      for (int i = 0; i < xTest.length; i++) {
        double max = 0;
        for (int j = 0; j < k - 1; j++) {
          int pos = j * (p + 1);
          double s = w[pos + p];
          for (int c = 0; c < p; c++) {
            s += xTest[i][c] * w[pos + c];
          }
          z[j] = s;
          max = Math.max(max, s);
        }
        z[k - 1] = 0;
        double norm = 0;
        for (int j = 0; j < k; j++) {
          norm += Math.exp(z[j] - max);
        }
        sum += z[yTest[i]] - max - Math.log(norm);
      }
      return sum / xTest.length;
    }
  }
}
