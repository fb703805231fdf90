package org.largecat.train.doublesum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.data.SyntheticData;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.Trainer;

/**
 * The lazy average of {@link IterateAverage} against the average taken the plain way: the iterate
 * read after every single update (one pair or mini-batch a step) of a twin trainer that does not
 * average, which moves the same iterate, summed over each epoch and folded across epochs with the
 * polynomial weights. With a ridge, so that U-max's row scalings and projections and isgd-batch's
 * lazy row scales (rescaled below 1/64 within the run) are all in the lag.
 */
class IterateAverageTest {
  private static final Dataset DATA =
      Preprocessing.unitRows(SyntheticData.linearSoftmax(60, 4, 6, 1.0, 5).data());
  private static final int EPOCHS = 4;

  @ParameterizedTest
  @EnumSource(
      value = Method.class,
      names = {"UMAX", "IMPLICIT_SGD", "IMPLICIT_SGD_BATCH"})
  void theLazyAverageIsTheMeanOfTheIteratesFoldedAcrossEpochs(Method method) {
    DoubleSumSpec.Builder builder =
        DoubleSumSpec.builder(method)
            .learningRate(method == Method.IMPLICIT_SGD_BATCH ? 5 : 0.5)
            .ridge(method == Method.IMPLICIT_SGD_BATCH ? 2 : 0.5)
            .blockSize(1)
            .threads(1)
            .seed(3);
    if (method == Method.IMPLICIT_SGD_BATCH) {
      builder.miniBatch(3, 2);
    }
    LinearModel averaged = LinearModel.zeros(Link.SOFTMAX, DATA.classes(), DATA.columns());
    LinearModel plain = LinearModel.zeros(Link.SOFTMAX, DATA.classes(), DATA.columns());
    int weights = DATA.classes() * (DATA.columns() + 1);
    double[] expected = new double[weights];
    try (Trainer lazy = DoubleSumTrainers.create(DATA, averaged, builder.build(), Kernels.get());
        Trainer twin =
            DoubleSumTrainers.create(DATA, plain, builder.averaged(false).build(), Kernels.get())) {
      Supplier<LinearModel> iterate =
          twin instanceof MiniBatchImplicitTrainer batch ? batch::iterate : () -> plain;
      for (int epoch = 1; epoch <= EPOCHS; epoch++) {
        double[] sum = new double[weights];
        int updates = twin.iterationsPerEpoch();
        for (int t = 0; t < updates; t++) {
          lazy.step();
          twin.step();
          double[] now = extended(iterate.get());
          for (int c = 0; c < weights; c++) {
            sum[c] += now[c];
          }
        }
        double rho =
            (IterateAverage.EPOCH_WEIGHT_POWER + 1) / (epoch + IterateAverage.EPOCH_WEIGHT_POWER);
        for (int c = 0; c < weights; c++) {
          expected[c] += rho * (sum[c] / updates - expected[c]);
        }
        double[] got = extended(averaged);
        for (int c = 0; c < weights; c++) {
          assertEquals(
              expected[c],
              got[c],
              1e-5 * (1 + Math.abs(expected[c])),
              method.label() + ", epoch " + epoch + ", weight " + c);
        }
      }
    }
  }

  private static double[] extended(LinearModel model) {
    int d = model.columns();
    double[] out = new double[model.classes() * (d + 1)];
    for (int k = 0; k < model.classes(); k++) {
      for (int j = 0; j < d; j++) {
        out[k * (d + 1) + j] = model.weights()[k * d + j];
      }
      out[k * (d + 1) + d] = model.biases()[k];
    }
    return out;
  }
}
