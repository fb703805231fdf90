package org.largecat.train.doublesum;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.largecat.fit.Trainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;
import org.largecat.train.sampled.SampledTrainer;

/**
 * 50 epochs (×0.9 per epoch) of the double-sum methods on {@link KnownOptimumProblem} with its
 * ridge, against the exact optimum F* of the ridge-regularised softmax; and of the biased baselines
 * (which have no ridge) against the least log-loss any model reaches, the unregularised MLE's.
 * Learning rates are those §4.1's tuning picked on this problem ({@code largecat tune}, 10% of the
 * data, 50 epochs, grid 10^{0,±1,±2,±3}; with --ridge 1e-3 for the double-sum ones): isgd-batch 10,
 * isgd 1, umax 0.1, nce 100, is 100, ove 10; and isgd at its default 0.1 ({@link
 * TrainerSpec#defaultSgdLearningRate}). u_i keeps its first learning rate ({@link
 * DoubleSumSpec#uEpochDecay}); U-max is also run with u_i's rate decayed as §4.1 decays W's, which
 * leaves it short of the optimum.
 */
class KnownOptimumConvergenceTest {
  private static final Kernels KERNELS = Kernels.get();
  private static final int EPOCHS = 50;

  /**
   * F and the log-loss after the run, and the mean Newton iterations per mini-batch step
   * (isgd-batch).
   */
  private record Outcome(double objective, double logLoss, double newtonIterations) {}

  private static Outcome doubleSum(Method method, double rate) {
    return doubleSum(method, rate, 1);
  }

  private static Outcome doubleSum(Method method, double rate, double uEpochDecay) {
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, 50, 20);
    DoubleSumSpec options =
        DoubleSumSpec.builder(method)
            .threads(2)
            .learningRate(rate)
            .epochDecay(0.9)
            .ridge(KnownOptimumProblem.RIDGE)
            .uEpochDecay(uEpochDecay)
            .build();
    return run(model, DoubleSumTrainers.create(KnownOptimumProblem.DATA, model, options, KERNELS));
  }

  private static Outcome sampled(Method method, double rate) {
    SampledSpec options =
        SampledSpec.builder(method)
            .batch(100)
            .sampled(5)
            .threads(2)
            .stepSize(new StepSizeSchedule.Sgd(rate, 0.9))
            .build();
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, 50, 20);
    SampledTrainer.initialise(model, options);
    return run(model, Trainers.create(KnownOptimumProblem.DATA, model, options, KERNELS));
  }

  private static Outcome run(LinearModel model, Trainer trainer) {
    try (trainer) {
      for (int t = 0; t < EPOCHS * trainer.iterationsPerEpoch(); t++) {
        trainer.step();
      }
    }
    double[] logLoss = new double[1];
    double objective = KnownOptimumProblem.OBJECTIVE.value(model, logLoss);
    double newton =
        trainer instanceof MiniBatchImplicitTrainer batch
            ? batch.meanNewtonIterations()
            : Double.NaN;
    return new Outcome(objective, logLoss[0], newton);
  }

  @Test
  void implicitSgdReachesTheExactOptimumWhereTheBiasedMethodsStopShort() {
    double best = KnownOptimumProblem.optimalObjective();
    double leastLogLoss = KnownOptimumProblem.unregularisedLogLoss();
    Map<String, Outcome> regularised = new LinkedHashMap<>();
    regularised.put("isgd-batch (10)", doubleSum(Method.IMPLICIT_SGD_BATCH, 10));
    regularised.put(
        "isgd (0.1)",
        doubleSum(Method.IMPLICIT_SGD, TrainerSpec.defaultSgdLearningRate(Method.IMPLICIT_SGD)));
    regularised.put("isgd (1)", doubleSum(Method.IMPLICIT_SGD, 1));
    regularised.put("umax (0.1)", doubleSum(Method.UMAX, 0.1));
    regularised.put("umax (0.1, u x0.9)", doubleSum(Method.UMAX, 0.1, 0.9));
    Map<String, Outcome> biased = new LinkedHashMap<>();
    biased.put("nce (100)", sampled(Method.NCE, 100));
    biased.put("is (100)", sampled(Method.IMPORTANCE_SAMPLING, 100));
    biased.put("ove (10)", sampled(Method.OVE, 10));
    System.out.printf(
        "mu = %g: F* = %.6f (log-loss %.6f); unregularised MLE log-loss %.6f%n",
        KnownOptimumProblem.RIDGE, best, KnownOptimumProblem.optimalLogLoss(), leastLogLoss);
    regularised.forEach(
        (name, o) ->
            System.out.printf(
                "%-16s F %.6f  F/F* %.5f%s%n",
                name,
                o.objective(),
                o.objective() / best,
                Double.isNaN(o.newtonIterations())
                    ? ""
                    : String.format("  (%.2f Newton iterations per step)", o.newtonIterations())));
    biased.forEach(
        (name, o) ->
            System.out.printf(
                "%-16s log-loss %.6f  / MLE's %.5f%n",
                name, o.logLoss(), o.logLoss() / leastLogLoss));
    for (String name : new String[] {"isgd-batch (10)", "isgd (0.1)", "umax (0.1)"}) {
      assertTrue(
          regularised.get(name).objective() <= 1.005 * best, name + " is not within 0.5% of F*");
    }
    // At the tuned rate 1 the single-pair implicit step biases u_i low in the early epochs (W's
    // step
    // a = W0(2η(K − 1)‖x̃‖²e^{z − u}) takes up what would raise u_i): 0.7% above F* (1.2% with
    // u_i's
    // rate decayed).
    assertTrue(
        regularised.get("isgd (1)").objective() <= 1.01 * best, "isgd (1) is not within 1% of F*");
    // With u_i's rate decayed ×0.9 per epoch, u_i moves less than 10η over the run and stays near
    // log K.
    assertTrue(
        regularised.get("umax (0.1, u x0.9)").objective() >= 1.01 * best,
        "umax with u_i's rate decayed came within 1% of F*: the held rate is no longer what closes the gap");
    assertTrue(
        regularised.get("isgd-batch (10)").newtonIterations() <= 20,
        "Newton needs too many iterations");
    for (String name : new String[] {"is (100)", "ove (10)"}) {
      assertTrue(
          biased.get(name).logLoss() >= 1.01 * leastLogLoss,
          name + " came within 1% of the MLE's log-loss");
    }
  }
}
