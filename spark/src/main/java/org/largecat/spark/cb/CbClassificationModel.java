package org.largecat.spark.cb;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.largecat.cb.CbPosterior;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.Design;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.Link;
import org.largecat.kernel.Kernels;
import org.largecat.spark.ExecutorKernels;
import org.largecat.spark.data.PartitionRows;
import scala.Option;

/**
 * The fitted q(B) of a {@link CbClassifier} and its BMA weights: {@link #transform} adds, per row,
 * the class probabilities under CBC, CBM or BMA (Eqs. 2.4.1, 2.4.2, 4.0.1, at the posterior mean as
 * App. G.2.1 does), the most probable class and the top-k classes, computed partition by partition
 * with {@link CbPredictor}. Saved as its parameters plus q(B)'s numbers.
 */
public final class CbClassificationModel extends Model<CbClassificationModel>
    implements CbParams, MLWritable {
  /**
   * Rows scored at once: their N x K probabilities stay small, and the predictor scores them on the
   * task's own thread.
   */
  private static final int ROW_CHUNK = CbPredictor.ROW_CHUNK;

  private static final StructType DATA_SCHEMA =
      new StructType()
          .add("link", DataTypes.StringType, false)
          .add("dimension", DataTypes.IntegerType, false)
          .add("categories", DataTypes.IntegerType, false)
          .add("priorVariance", DataTypes.DoubleType, false)
          .add("means", DataTypes.createArrayType(DataTypes.DoubleType, false), false)
          .add("form", DataTypes.StringType, false)
          .add("covariance", DataTypes.createArrayType(DataTypes.DoubleType, false), false)
          .add("logEvidenceCbc", DataTypes.DoubleType, false)
          .add("logEvidenceCbm", DataTypes.DoubleType, false)
          .add("evidenceSamples", DataTypes.IntegerType, false)
          .add("elbo", DataTypes.createArrayType(DataTypes.DoubleType, false), false);

  private final String uid;
  private final Declared declared;
  private final CbPosterior.State state;
  private final double priorVariance;
  private final CbPredictor.ModelEvidence evidence;
  private final double[] elbo;

  CbClassificationModel(
      String uid,
      CbPosterior.State state,
      double priorVariance,
      CbPredictor.ModelEvidence evidence,
      double[] elbo) {
    this.uid = uid;
    this.declared = new Declared(this);
    this.state = state;
    this.priorVariance = priorVariance;
    this.evidence = evidence;
    this.elbo = elbo.clone();
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public Declared declared() {
    return declared;
  }

  /** K (the numClasses parameter is the estimator's setting, 0 for "from the labels"). */
  public int classCount() {
    return state.categories();
  }

  /** D, the features per row (the intercept not counted). */
  public int numFeatures() {
    return state.dimension() - 1;
  }

  /** The fitted q(B). */
  public CbPosterior posterior() {
    return CbPosterior.restore(
        state, GaussianPrior.isotropic(state.dimension(), priorVariance), Kernels.get());
  }

  /** The CBC and CBM evidence bounds behind the BMA weights. */
  public CbPredictor.ModelEvidence evidence() {
    return evidence;
  }

  /** The ELBO after each iteration of the fit, as {@link org.largecat.cb.CaviFit#elbo}. */
  public double[] elboTrace() {
    return elbo.clone();
  }

  public CbClassificationModel setFeaturesCol(String value) {
    return put(featuresCol(), value);
  }

  public CbClassificationModel setPredictionCol(String value) {
    return put(predictionCol(), value);
  }

  public CbClassificationModel setProbabilityCol(String value) {
    return put(probabilityCol(), value);
  }

  /** cbc, cbm or bma. */
  public CbClassificationModel setLikelihood(String value) {
    return put(likelihood(), value);
  }

  public CbClassificationModel setTopK(int value) {
    return put(topK(), value);
  }

  public CbClassificationModel setTopKCol(String value) {
    return put(topKCol(), value);
  }

  private <T> CbClassificationModel put(org.apache.spark.ml.param.Param<T> param, T value) {
    set(param, CbParams.check(param, value));
    return this;
  }

  /**
   * Adds the probability (a vector of K), prediction (the most probable class, a double) and top-k
   * (the min(topK, K) most probable classes, best first) columns.
   */
  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    CbParams.checkAll(this);
    StructType out = transformSchema(dataset.schema());
    Dataset<Row> rows = dataset.toDF();
    Scorer scorer =
        new Scorer(
            state,
            priorVariance,
            evidence.logEvidenceCbc(),
            evidence.logEvidenceCbm(),
            getOrDefault(likelihood()),
            Math.min((Integer) getOrDefault(topK()), state.categories()),
            rows.schema().fieldIndex(getOrDefault(featuresCol())));
    Broadcast<Scorer> shared =
        JavaSparkContext.fromSparkContext(rows.sparkSession().sparkContext()).broadcast(scorer);
    return rows.mapPartitions(
        (org.apache.spark.api.java.function.MapPartitionsFunction<Row, Row>)
            it -> shared.value().score(it),
        Encoders.row(out));
  }

  /**
   * The mean log-likelihood and accuracy of CBC, CBM and BMA on {@code data}'s {@code labelCol} and
   * {@code featuresCol}, in one distributed pass ({@code largecat cavi}'s holdout table).
   */
  public CbEvaluation.Scores evaluate(Dataset<?> data) {
    CbParams.checkAll(this);
    return CbEvaluation.evaluate(
        data.toDF(),
        getOrDefault(labelCol()),
        getOrDefault(featuresCol()),
        state,
        priorVariance,
        evidence);
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return outputSchema(this, schema);
  }

  /** The input schema checked (features) and the three output columns added. */
  static StructType outputSchema(CbParams stage, StructType schema) {
    CbColumns.requireVector(schema, stage.getOrDefault(stage.featuresCol()), "featuresCol");
    String probability = stage.getOrDefault(stage.probabilityCol());
    String prediction = stage.getOrDefault(stage.predictionCol());
    String top = stage.getOrDefault(stage.topKCol());
    CbColumns.requireAbsent(schema, probability, "probabilityCol");
    CbColumns.requireAbsent(schema, prediction, "predictionCol");
    CbColumns.requireAbsent(schema, top, "topKCol");
    if (probability.equals(prediction) || probability.equals(top) || prediction.equals(top)) {
      throw new IllegalArgumentException(
          "probabilityCol, predictionCol and topKCol are "
              + probability
              + ", "
              + prediction
              + ", "
              + top
              + "; give them three different names");
    }
    return schema
        .add(probability, SQLDataTypes.VectorType(), false)
        .add(prediction, DataTypes.DoubleType, false)
        .add(top, DataTypes.createArrayType(DataTypes.IntegerType, false), false);
  }

  @Override
  public CbClassificationModel copy(ParamMap extra) {
    return copyValues(new CbClassificationModel(uid, state, priorVariance, evidence, elbo), extra)
        .setParent(parent());
  }

  @Override
  public MLWriter write() {
    return new Writer(this);
  }

  public static MLReader<CbClassificationModel> read() {
    return new Reader();
  }

  public static CbClassificationModel load(String path) {
    return read().load(path);
  }

  /**
   * The predictor of a q(B) sent to a task: its numbers, and the N(0, priorVariance I) prior it was
   * fitted under.
   */
  static CbPredictor predictor(CbPosterior.State state, double priorVariance, Kernels kernels) {
    return new CbPredictor(
        CbPosterior.restore(
            state, GaussianPrior.isotropic(state.dimension(), priorVariance), kernels),
        kernels);
  }

  /** What a task needs to score its partition's rows. */
  private record Scorer(
      CbPosterior.State state,
      double priorVariance,
      double logEvidenceCbc,
      double logEvidenceCbm,
      String likelihood,
      int topK,
      int featuresIndex)
      implements Serializable {

    Iterator<Row> score(Iterator<Row> rows) {
      Kernels kernels = ExecutorKernels.get();
      CbPredictor predictor = predictor(state, priorVariance, kernels);
      return new Iterator<>() {
        private Iterator<Row> scored = Collections.emptyIterator();

        @Override
        public boolean hasNext() {
          while (!scored.hasNext() && rows.hasNext()) {
            scored = chunk(rows, predictor, kernels);
          }
          return scored.hasNext();
        }

        @Override
        public Row next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return scored.next();
        }
      };
    }

    private Iterator<Row> chunk(Iterator<Row> rows, CbPredictor predictor, Kernels kernels) {
      List<Row> input = new ArrayList<>(ROW_CHUNK);
      List<Row> features = new ArrayList<>(ROW_CHUNK);
      while (input.size() < ROW_CHUNK && rows.hasNext()) {
        Row r = rows.next();
        input.add(r);
        // PartitionRows reads a label and a vector; transform has no labels, so each gets 0.
        features.add(RowFactory.create(0, r.get(featuresIndex)));
      }
      int k = state.categories();
      org.largecat.data.Dataset part =
          PartitionRows.read(features.iterator(), 0, 1, state.dimension() - 1, k);
      CbPredictor.Predictions p = predictor.plugIn(Design.withIntercept(part.features(), kernels));
      double[] logp =
          switch (likelihood) {
            case "cbc" -> p.cbc();
            case "cbm" -> p.cbm();
            default ->
                CbPredictor.bmaLogProbabilities(
                    p, new CbPredictor.ModelEvidence(logEvidenceCbc, logEvidenceCbm, 1));
          };
      List<Row> out = new ArrayList<>(input.size());
      for (int i = 0; i < input.size(); i++) {
        double[] probability = new double[k];
        for (int c = 0; c < k; c++) {
          probability[c] = Math.exp(logp[i * k + c]);
        }
        int[] best = topClasses(logp, i * k, k, topK);
        Row r = input.get(i);
        Object[] values = new Object[r.length() + 3];
        for (int j = 0; j < r.length(); j++) {
          values[j] = r.get(j);
        }
        values[r.length()] = Vectors.dense(probability);
        values[r.length() + 1] = (double) best[0];
        values[r.length() + 2] = best;
        out.add(RowFactory.create(values));
      }
      return out.iterator();
    }

    /** The top classes by log-probability, best first (ties to the lower index). */
    private static int[] topClasses(double[] logp, int off, int k, int top) {
      int[] best = new int[top];
      int filled = 0;
      for (int c = 0; c < k; c++) {
        double v = logp[off + c];
        if (filled == top && v <= logp[off + best[top - 1]]) {
          continue;
        }
        int at = Math.min(filled, top - 1);
        while (at > 0 && v > logp[off + best[at - 1]]) {
          best[at] = best[at - 1];
          at--;
        }
        best[at] = c;
        filled = Math.min(filled + 1, top);
      }
      return best;
    }
  }

  private static final class Writer extends MLWriter {
    private final CbClassificationModel model;

    Writer(CbClassificationModel model) {
      this.model = model;
    }

    @Override
    public void saveImpl(String path) {
      DefaultParamsWriter.saveMetadata(model, path, sparkSession());
      CbPosterior.State s = model.state;
      String form;
      double[] covariance;
      if (s.variances() != null) {
        form = "diagonal";
        covariance = s.variances();
      } else if (s.sharedFactor() != null) {
        form = "shared";
        covariance = s.sharedFactor();
      } else {
        form = "per-category";
        int square = s.dimension() * s.dimension();
        covariance = new double[s.categories() * square];
        for (int k = 0; k < s.categories(); k++) {
          System.arraycopy(s.factors()[k], 0, covariance, k * square, square);
        }
      }
      Row data =
          RowFactory.create(
              s.link().label(),
              s.dimension(),
              s.categories(),
              model.priorVariance,
              s.means(),
              form,
              covariance,
              model.evidence.logEvidenceCbc(),
              model.evidence.logEvidenceCbm(),
              model.evidence.samples(),
              model.elbo);
      sparkSession()
          .createDataFrame(List.of(data), DATA_SCHEMA)
          .repartition(1)
          .write()
          .parquet(new Path(path, "data").toString());
    }
  }

  private static final class Reader extends MLReader<CbClassificationModel> {
    @Override
    public CbClassificationModel load(String path) {
      DefaultParamsReader.Metadata metadata =
          DefaultParamsReader.loadMetadata(
              path, sparkSession(), CbClassificationModel.class.getName());
      Row r = sparkSession().read().parquet(new Path(path, "data").toString()).head();
      Link link = Link.byLabel(r.getString(0));
      int m = r.getInt(1);
      int k = r.getInt(2);
      double[] covariance = doubles(r, 6);
      CbPosterior.State state =
          switch (r.getString(5)) {
            case "diagonal" ->
                new CbPosterior.State(link, m, k, doubles(r, 4), null, null, covariance);
            case "shared" ->
                new CbPosterior.State(link, m, k, doubles(r, 4), covariance, null, null);
            default -> {
              double[][] factors = new double[k][];
              for (int c = 0; c < k; c++) {
                factors[c] = java.util.Arrays.copyOfRange(covariance, c * m * m, (c + 1) * m * m);
              }
              yield new CbPosterior.State(link, m, k, doubles(r, 4), null, factors, null);
            }
          };
      CbClassificationModel model =
          new CbClassificationModel(
              metadata.uid(),
              state,
              r.getDouble(3),
              new CbPredictor.ModelEvidence(r.getDouble(7), r.getDouble(8), r.getInt(9)),
              doubles(r, 10));
      metadata.getAndSetParams(model, Option.empty());
      return model;
    }

    private static double[] doubles(Row r, int i) {
      List<Double> list = r.getList(i);
      return list.stream().mapToDouble(Double::doubleValue).toArray();
    }
  }
}
