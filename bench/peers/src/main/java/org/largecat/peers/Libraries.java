package org.largecat.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.largecat.data.Dataset;
import org.largecat.fit.Classifier;
import org.tribuo.Example;
import org.tribuo.MutableDataset;
import org.tribuo.Prediction;
import org.tribuo.Trainer;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.sgd.linear.LinearSGDModel;
import org.tribuo.classification.sgd.linear.LinearSGDTrainer;
import org.tribuo.classification.sgd.objectives.LogMulticlass;
import org.tribuo.impl.ArrayExample;
import org.tribuo.math.optimisers.AdaGrad;
import org.tribuo.provenance.SimpleDataSourceProvenance;
import smile.classification.LogisticRegression;

/** The peers as the harness calls them: data conversion (untimed), fit, test log-likelihood. */
final class Libraries {
  private Libraries() {}

  /** Smallest probability a log is taken of, so a peer's 0 is a large finite penalty, not −∞. */
  private static final double FLOOR = 1e-300;

  // ------------------------------------------------------------------ largecat

  static Dataset largecatData(float[][] x, int[] y, int classes) {
    return Dataset.dense(x, y, classes);
  }

  static double largecatLogLikelihood(Classifier model, Dataset test) {
    return model.evaluate(test).meanLogLikelihood();
  }

  // ------------------------------------------------------------------ Smile

  static LogisticRegression.Multinomial smileFit(
      double[][] x, int[] y, double lambda, double tolerance, int maxIter) {
    return LogisticRegression.multinomial(
        x, y, new LogisticRegression.Options(lambda, tolerance, maxIter));
  }

  static double smileLogLikelihood(LogisticRegression.Multinomial model, double[][] x, int[] y) {
    double[] p = new double[model.numClasses()];
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      model.predict(x[i], p);
      sum += Math.log(Math.max(p[y[i]], FLOOR));
    }
    return sum / x.length;
  }

  // ------------------------------------------------------------------ Tribuo

  static final LabelFactory LABELS = new LabelFactory();

  static {
    // LinearSGDTrainer logs the loss at INFO every loggingInterval examples; keep the table clean.
    Logger.getLogger("org.tribuo").setLevel(Level.WARNING);
  }

  static String[] featureNames(int columns) {
    String[] names = new String[columns];
    for (int j = 0; j < columns; j++) {
      names[j] = String.format("f%05d", j); // Tribuo sorts feature names: keep them in column order
    }
    return names;
  }

  static List<Example<Label>> tribuoExamples(float[][] x, int[] y, String[] names) {
    List<Example<Label>> out = new ArrayList<>(x.length);
    double[] values = new double[names.length];
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < values.length; j++) {
        values[j] = x[i][j];
      }
      out.add(new ArrayExample<>(new Label(Integer.toString(y[i])), names, values));
    }
    return out;
  }

  static MutableDataset<Label> tribuoDataset(List<Example<Label>> examples) {
    MutableDataset<Label> data =
        new MutableDataset<>(new SimpleDataSourceProvenance("peers", LABELS), LABELS);
    data.addAll(examples);
    return data;
  }

  /**
   * LinearSGDTrainer as its configuration defaults it: LogMulticlass, AdaGrad(learning rate 1.0,
   * epsilon 0.1), 5 epochs, logging every 1,000 examples, mini-batches of 1, Tribuo's default seed.
   */
  static LinearSGDModel tribuoFit(MutableDataset<Label> data) {
    LinearSGDTrainer trainer =
        new LinearSGDTrainer(
            new LogMulticlass(), new AdaGrad(1.0, 0.1), 5, 1000, 1, Trainer.DEFAULT_SEED);
    return (LinearSGDModel) trainer.train(data);
  }

  static double tribuoLogLikelihood(LinearSGDModel model, List<Example<Label>> test, int[] y) {
    List<Prediction<Label>> predictions = model.predict(test);
    double sum = 0;
    for (int i = 0; i < y.length; i++) {
      Map<String, Label> scores = predictions.get(i).getOutputScores();
      Label truth = scores.get(Integer.toString(y[i]));
      sum += Math.log(Math.max(truth == null ? 0 : truth.getScore(), FLOOR));
    }
    return sum / y.length;
  }

  /** The most probable class of a Tribuo prediction, as an int. */
  static int tribuoClass(Prediction<Label> prediction) {
    return Integer.parseInt(prediction.getOutput().getLabel());
  }
}
