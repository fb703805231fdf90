// The BMA experiment of categorical-from-binary App. G.2 (Table G.1) on the App. G.1.1 simulator:
// java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp bench/target/largecat.jar \
//     bench/experiments/G1Table.java logit|probit SEEDS
// One row per (sigma_high, K, M, N): means over SEEDS datasets; 80/20 split, N(0, I) prior, tolerance 1e-6, S = 10.
import org.largecat.cb.*;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
public class G1Table {
  public static void main(String[] a) {
    Link link = Link.byLabel(a[0]);
    Kernels k = Kernels.get();
    int seeds = Integer.parseInt(a[1]);
    System.out.println("| link | sigma_high | K | M | N | iters (mean) | w_CBC (mean) | seeds w_CBC > 0.5 | KL CBC | KL CBM | KL BMA (mean) | KL BMA (max) | loglik CBC | loglik CBM | loglik BMA | acc BMA |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (double sh : new double[] {0.1, 2.0}) for (int K : new int[] {3, 10}) for (int mult : new int[] {1, 2}) for (int b : new int[] {10, 20, 40, 80, 160}) {
      int M = mult * K, P = K * (M + 1), N = b * P;
      double[] acc = new double[12];
      for (int seed = 0; seed < seeds; seed++) {
      CbSimulation sim = CbSimulation.generate(N, K, M, sh, Math.sqrt(0.001), 0.5, 1000L * K + 10 * M + b + 100000L * seed);
      int ntr = (int) Math.round(0.8 * N);
      int[] tr = java.util.stream.IntStream.range(0, ntr).toArray(), te = java.util.stream.IntStream.range(ntr, N).toArray();
      Dataset train = sim.data().subset(tr), test = sim.data().subset(te);
      CaviFit fit = IbCavi.fit(train, GaussianPrior.isotropic(M + 1, 1), CaviOptions.of(link).withIterations(500).withTolerance(1e-6), k);
      CbPredictor pr = new CbPredictor(fit.posterior(), k);
      CbPredictor.ModelEvidence ev = pr.evidence(Design.withIntercept(train.features(), k), train.labels(), 10, 7);
      CbPredictor.Predictions p = pr.plugIn(Design.withIntercept(test.features(), k));
      double[] bma = CbPredictor.bmaLogProbabilities(p, ev);
      double[] truth = sim.trueProbabilities(test.features());
      double klBma = CbMetrics.meanKl(truth, bma, K);
      double[] v = {fit.iterations(), ev.weightCbc(), ev.weightCbc() > 0.5 ? 1 : 0, CbMetrics.meanKl(truth, p.cbc(), K), CbMetrics.meanKl(truth, p.cbm(), K),
          klBma, 0, CbMetrics.meanLogLikelihood(p.cbc(), K, test.labels()), CbMetrics.meanLogLikelihood(p.cbm(), K, test.labels()),
          CbMetrics.meanLogLikelihood(bma, K, test.labels()), CbMetrics.accuracy(bma, K, test.labels())};
      for (int i = 0; i < v.length; i++) acc[i] += i == 2 ? v[i] : v[i] / seeds;
      acc[6] = Math.max(acc[6], klBma);
      }
      System.out.printf(java.util.Locale.ROOT, "| %s | %.1f | %d | %d | %d | %.1f | %.3f | %d/%d | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f | %.3f |%n",
          link.label(), sh, K, M, N, acc[0], acc[1], (int) acc[2], seeds, acc[3], acc[4], acc[5], acc[6], acc[7], acc[8], acc[9], acc[10]);
    }
  }
}
