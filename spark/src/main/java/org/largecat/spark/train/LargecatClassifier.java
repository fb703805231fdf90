package org.largecat.spark.train;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.max;

import java.util.Arrays;
import java.util.Locale;
import java.util.logging.Logger;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.largecat.fit.Fit;
import org.largecat.fit.FitListener;
import org.largecat.fit.Fitter;
import org.largecat.spark.eval.Columns;
import org.largecat.train.Method;
import org.largecat.train.Sampling;
import org.largecat.train.StoppingRule;

/**
 * A Spark ML estimator that fits a largecat classifier — linear, or factorized with {@code rank} —
 * by a sampled-bound method on a DataFrame's partitions ({@link DistributedTrainer}), and gives a
 * {@link LargecatClassificationModel}. Usable in a {@code Pipeline}; saved and loaded as Spark ML
 * stages are.
 *
 * <p>It trains through {@link Fitter}, as {@code largecat train} and {@code largecat spark train}
 * do: a parameter left unset takes the fitter's default, so the same parameters give the same run.
 *
 * <p>Parameters: {@code labelCol}, {@code featuresCol}, {@code predictionCol}, {@code
 * probabilityCol}, {@code topKCol}, {@code topK} (passed to the model); {@code method} (ar-softmax,
 * ove, ar-probit, ar-logistic, exact-softmax-sgd, nce, is), {@code stopping} (default true: the
 * stopping rule, at most {@code epochs} epochs, default 100; false: exactly {@code epochs}), {@code
 * batchSize} |B|, {@code sampledClasses} |S|, {@code stepSize} (the initial step), {@code
 * sharedSampling}, {@code seed}, {@code numClasses} (0: the largest label + 1), {@code rank} (0:
 * linear), {@code roundsPerEpoch}, {@code priorVariance} (default: chosen on the held-out rows),
 * {@code validationFraction} (default: 10%, 1,000 to 10,000 rows), {@code maxSeconds} (default:
 * 300).
 */
public final class LargecatClassifier extends Estimator<LargecatClassificationModel>
    implements LargecatParams, DefaultParamsWritable {
  private static final Logger LOG = Logger.getLogger(LargecatClassifier.class.getName());
  private static final String[] METHODS =
      Arrays.stream(Method.values())
          .filter(m -> !m.isDoubleSum() && !m.isFullBatch())
          .map(Method::label)
          .toArray(String[]::new);

  private final String uid;
  private final Declared declared;
  private final Param<String> method;
  private final IntParam epochs;
  private final BooleanParam stopping;
  private final IntParam batchSize;
  private final IntParam sampledClasses;
  private final DoubleParam stepSize;
  private final BooleanParam sharedSampling;
  private final LongParam seed;
  private final IntParam numClasses;
  private final IntParam rank;
  private final IntParam roundsPerEpoch;
  private final DoubleParam priorVariance;
  private final DoubleParam validationFraction;
  private final DoubleParam maxSeconds;

  public LargecatClassifier() {
    this(Identifiable$.MODULE$.randomUID("largecat"));
  }

  public LargecatClassifier(String uid) {
    this.uid = uid;
    declared = new Declared(this);
    method =
        new Param<>(
            this,
            "method",
            "the bound maximised: " + String.join(", ", METHODS),
            ParamValidators.inArray(METHODS));
    epochs =
        new IntParam(
            this,
            "epochs",
            "epochs run, or at most run with stopping (>= 1)",
            ParamValidators.gtEq(1));
    stopping =
        new BooleanParam(
            this,
            "stopping",
            "stop by largecat train's stopping rule, at most epochs epochs (else exactly epochs)");
    batchSize =
        new IntParam(
            this, "batchSize", "examples per mini-batch |B| (>= 1)", ParamValidators.gtEq(1));
    sampledClasses =
        new IntParam(
            this,
            "sampledClasses",
            "classes sampled per example |S| (>= 1; default: the method's)",
            ParamValidators.gtEq(1));
    stepSize =
        new DoubleParam(
            this,
            "stepSize",
            "the initial step size, rho0 of the adaptive schedule (> 0; default: the method's)",
            ParamValidators.gt(0));
    sharedSampling =
        new BooleanParam(
            this,
            "sharedSampling",
            "one sampled class set per mini-batch (default: with rank under the stopping rule)");
    seed = new LongParam(this, "seed", "the seed; a run is reproducible for a fixed partitioning");
    numClasses =
        new IntParam(
            this,
            "numClasses",
            "K, or 0 for the largest label + 1 (>= 0)",
            ParamValidators.gtEq(0));
    rank =
        new IntParam(
            this,
            "rank",
            "r of a factorized model, or 0 for a linear one (>= 0)",
            ParamValidators.gtEq(0));
    roundsPerEpoch =
        new IntParam(
            this,
            "roundsPerEpoch",
            "rounds (model broadcast, partition steps, sum of their changes) an epoch (>= 1)",
            ParamValidators.gtEq(1));
    priorVariance =
        new DoubleParam(
            this,
            "priorVariance",
            "V of a N(0, V) prior on the weights, 0 for maximum likelihood (>= 0; default: chosen"
                + " on the held-out rows)",
            ParamValidators.gtEq(0));
    validationFraction =
        new DoubleParam(
            this,
            "validationFraction",
            "the fraction of the rows held out, which the stopping rule watches and the prior is"
                + " chosen on; 0 for none (in [0, 1); default: 10%, 1,000 to 10,000 rows)",
            ParamValidators.inRange(0, 1, true, false));
    maxSeconds =
        new DoubleParam(
            this,
            "maxSeconds",
            "the most seconds the fit takes, checked after each epoch (> 0; default: 300)",
            ParamValidators.gt(0));
    setDefault(method, Method.AR_SOFTMAX.label());
    setDefault(epochs, StoppingRule.DEFAULT.maxEpochs());
    setDefault(stopping, true);
    setDefault(seed, 1L);
    setDefault(numClasses, 0);
    setDefault(rank, 0);
    setDefault(roundsPerEpoch, 10);
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public Declared declared() {
    return declared;
  }

  public Param<String> method() {
    return method;
  }

  public IntParam epochs() {
    return epochs;
  }

  public BooleanParam stopping() {
    return stopping;
  }

  public IntParam batchSize() {
    return batchSize;
  }

  public IntParam sampledClasses() {
    return sampledClasses;
  }

  public DoubleParam stepSize() {
    return stepSize;
  }

  public BooleanParam sharedSampling() {
    return sharedSampling;
  }

  public LongParam seed() {
    return seed;
  }

  public IntParam numClasses() {
    return numClasses;
  }

  public IntParam rank() {
    return rank;
  }

  public IntParam roundsPerEpoch() {
    return roundsPerEpoch;
  }

  public DoubleParam priorVariance() {
    return priorVariance;
  }

  public DoubleParam validationFraction() {
    return validationFraction;
  }

  public DoubleParam maxSeconds() {
    return maxSeconds;
  }

  public LargecatClassifier setLabelCol(String value) {
    return (LargecatClassifier) set(labelCol(), value);
  }

  public LargecatClassifier setFeaturesCol(String value) {
    return (LargecatClassifier) set(featuresCol(), value);
  }

  public LargecatClassifier setPredictionCol(String value) {
    return (LargecatClassifier) set(predictionCol(), value);
  }

  public LargecatClassifier setProbabilityCol(String value) {
    return (LargecatClassifier) set(probabilityCol(), value);
  }

  public LargecatClassifier setTopKCol(String value) {
    return (LargecatClassifier) set(topKCol(), value);
  }

  public LargecatClassifier setTopK(int value) {
    return (LargecatClassifier) set(topK(), value);
  }

  public LargecatClassifier setMethod(String value) {
    return (LargecatClassifier) set(method, value);
  }

  public LargecatClassifier setEpochs(int value) {
    return (LargecatClassifier) set(epochs, value);
  }

  public LargecatClassifier setStopping(boolean value) {
    return (LargecatClassifier) set(stopping, value);
  }

  public LargecatClassifier setBatchSize(int value) {
    return (LargecatClassifier) set(batchSize, value);
  }

  public LargecatClassifier setSampledClasses(int value) {
    return (LargecatClassifier) set(sampledClasses, value);
  }

  public LargecatClassifier setStepSize(double value) {
    return (LargecatClassifier) set(stepSize, value);
  }

  public LargecatClassifier setSharedSampling(boolean value) {
    return (LargecatClassifier) set(sharedSampling, value);
  }

  public LargecatClassifier setSeed(long value) {
    return (LargecatClassifier) set(seed, value);
  }

  public LargecatClassifier setNumClasses(int value) {
    return (LargecatClassifier) set(numClasses, value);
  }

  public LargecatClassifier setRank(int value) {
    return (LargecatClassifier) set(rank, value);
  }

  public LargecatClassifier setRoundsPerEpoch(int value) {
    return (LargecatClassifier) set(roundsPerEpoch, value);
  }

  public LargecatClassifier setPriorVariance(double value) {
    return (LargecatClassifier) set(priorVariance, value);
  }

  public LargecatClassifier setValidationFraction(double value) {
    return (LargecatClassifier) set(validationFraction, value);
  }

  public LargecatClassifier setMaxSeconds(double value) {
    return (LargecatClassifier) set(maxSeconds, value);
  }

  /**
   * The {@link Fitter} of these parameters: each parameter set is given to it, the others keep its
   * defaults, which are {@code largecat train}'s.
   */
  public Fitter fitter() {
    Fitter fitter = Fitter.softmax().method(Method.byLabel(getOrDefault(method))).listener(LOGGED);
    int most = (Integer) getOrDefault(epochs);
    if ((Boolean) getOrDefault(stopping)) {
      fitter.maxEpochs(most);
    } else {
      fitter.epochs(most);
    }
    if (isSet(batchSize)) {
      fitter.batch((Integer) getOrDefault(batchSize));
    }
    if (isSet(sampledClasses)) {
      fitter.sampled((Integer) getOrDefault(sampledClasses));
    }
    if (isSet(stepSize)) {
      fitter.learningRate((Double) getOrDefault(stepSize));
    }
    if (isSet(sharedSampling)) {
      fitter.sampling(
          (Boolean) getOrDefault(sharedSampling) ? Sampling.SHARED : Sampling.PER_EXAMPLE);
    }
    if ((Integer) getOrDefault(rank) > 0) {
      fitter.rank((Integer) getOrDefault(rank));
    }
    if (isSet(priorVariance)) {
      fitter.priorVariance((Double) getOrDefault(priorVariance));
    }
    if (isSet(validationFraction)) {
      fitter.validationFraction((Double) getOrDefault(validationFraction));
    }
    if (isSet(maxSeconds)) {
      fitter.maxSeconds((Double) getOrDefault(maxSeconds));
    }
    return fitter.seed((Long) getOrDefault(seed));
  }

  /** The fit's progress, logged at INFO. */
  private static final FitListener LOGGED =
      new FitListener() {
        @Override
        public void note(String message) {
          LOG.info(() -> "largecat: " + message);
        }

        @Override
        public void epoch(Fit.Epoch epoch) {
          LOG.info(
              () ->
                  String.format(
                      Locale.ROOT,
                      "largecat: epoch %d, %s %.6g, %.1f s",
                      epoch.epoch(),
                      epoch.watched().description(),
                      epoch.value(),
                      epoch.seconds()));
        }
      };

  @Override
  public LargecatClassificationModel fit(Dataset<?> dataset) {
    transformSchema(dataset.schema(), true);
    Dataset<Row> data = dataset.toDF();
    String label = getOrDefault(labelCol());
    String features = getOrDefault(featuresCol());
    Row summary = data.agg(max(col(label)), count(col(label))).head();
    if (summary.getLong(1) == 0) {
      throw new IllegalArgumentException("the training DataFrame has no rows");
    }
    int classes = (Integer) getOrDefault(numClasses);
    if (classes == 0) {
      classes = (int) Math.floor(((Number) summary.get(0)).doubleValue()) + 1;
    }
    int columns = ((Vector) data.select(features).head().get(0)).size();
    Fit fit =
        fitter()
            .fit(
                new PartitionedRows(
                    data,
                    label,
                    features,
                    summary.getLong(1),
                    classes,
                    columns,
                    (Integer) getOrDefault(roundsPerEpoch)));
    LOG.info(
        () ->
            String.format(
                Locale.ROOT,
                "largecat: %s, %d rounds, %.1f s, stopped: %s",
                fit.method().label(),
                fit.iterations(),
                fit.seconds(),
                fit.stoppedBecause()));
    LargecatClassificationModel fitted = new LargecatClassificationModel(uid, fit.model());
    fitted.setParent(this);
    return copyValues(fitted, ParamMap.empty());
  }

  @Override
  public StructType transformSchema(StructType schema) {
    Columns.requireLabel(schema, getOrDefault(labelCol()));
    return LargecatClassificationModel.outputSchema(
        schema,
        getOrDefault(featuresCol()),
        getOrDefault(predictionCol()),
        getOrDefault(probabilityCol()),
        getOrDefault(topKCol()));
  }

  @Override
  public LargecatClassifier copy(ParamMap extra) {
    return (LargecatClassifier) defaultCopy(extra);
  }

  public static MLReader<LargecatClassifier> read() {
    return new DefaultParamsReader<>();
  }

  public static LargecatClassifier load(String path) {
    return read().load(path);
  }
}
