package org.largecat.cb;

import org.largecat.kernel.Kernels;

/**
 * CBC and CBM category probabilities (Eqs. 2.4.1, 2.4.2; D.2.1 for probit, E.2.1 for logit) from
 * utilities eta_ik = x_i^T beta_k, in log space. CBM: log p_k = log H(eta_k) - logsumexp_l log
 * H(eta_l). CBC in its normalised-odds form (Sec. B.2; the factor prod_j (1 - H(eta_j)) cancels):
 * log p_k = o_k - logsumexp_l o_l with o_k = log H(eta_k) - log H(-eta_k). The log-cdf kernels are
 * finite for every finite utility (log Phi(-1e4) = -5.0e7) and the log-sum-exp shifts by the row
 * maximum, so the results are finite for any finite utilities, where products of H and 1 - H
 * underflow to 0/0.
 */
public final class CbProbabilities {
  private CbProbabilities() {}

  /**
   * Writes log p_CBC and log p_CBM for each of the count rows of the count x K row-major utilities
   * eta into cbc and cbm from outOff on (same shape; eta is left as it was).
   */
  public static void logProbabilities(
      Kernels kernels,
      Link link,
      int count,
      int categories,
      double[] eta,
      double[] cbc,
      double[] cbm,
      int outOff) {
    int cells = count * categories;
    if (eta.length < cells || cbc.length - outOff < cells || cbm.length - outOff < cells) {
      throw new IllegalArgumentException(
          "utilities and outputs need " + count + " x " + categories + " elements");
    }
    // log H(eta) and log(1 - H(eta)) from one pass.
    kernels
        .specialFunctions()
        .applyPair(link.logCdf(), link.logSurvival(), cells, eta, 0, cbm, outOff, cbc, outOff);
    for (int i = outOff; i < outOff + cells; i++) {
      cbc[i] = cbm[i] - cbc[i];
    }
    normaliseRows(kernels, count, categories, cbc, outOff);
    normaliseRows(kernels, count, categories, cbm, outOff);
  }

  /**
   * Subtracts each row's log-sum-exp from it, as (v - max) - log sum exp(v - max): at log-odds of
   * -5e7 (log Phi(-1e4)) one ulp is 7e-9, so adding the small log-sum to the maximum first would
   * round it away.
   */
  static void normaliseRows(
      Kernels kernels, int count, int categories, double[] logits, int logitsOff) {
    for (int i = 0; i < count; i++) {
      int off = logitsOff + i * categories;
      double max = kernels.vectorOps().max(categories, logits, off);
      double logSum = Math.log(kernels.vectorOps().sumExp(categories, logits, off, max));
      for (int k = off; k < off + categories; k++) {
        logits[k] = (logits[k] - max) - logSum;
      }
    }
  }
}
