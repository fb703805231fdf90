package org.largecat.spark.train;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsReader$;
import org.apache.spark.ml.util.DefaultParamsWriter$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.eval.ClassRanks;
import org.largecat.eval.Evaluation;
import org.largecat.eval.Predictor;
import org.largecat.model.ModelFile;
import org.largecat.model.ScoreModel;
import org.largecat.spark.ExecutorKernels;
import org.largecat.spark.eval.Columns;
import org.largecat.spark.eval.DistributedEvaluation;
import org.largecat.spark.eval.ShippedModel;
import scala.collection.immutable.ArraySeq;
import scala.reflect.ClassTag$;

/**
 * A fitted largecat classifier as a Spark ML model: {@code transform} adds the most probable class
 * ({@code predictionCol}), the class probabilities ({@code probabilityCol}) and the top-k classes
 * ({@code topKCol}) to each row; {@link #evaluate} gives the exact test log-likelihood, accuracy
 * and top-k accuracy over a DataFrame. Saved, it is a directory of Spark ML metadata and the model
 * file the {@code largecat} command reads and writes ({@value #MODEL_FILE}, {@link ModelFile}), so
 * a model moves between Spark and the command: {@link #readModelFile} wraps one the command wrote.
 *
 * <p>The probabilities are a vector of size K, dense up to {@value #DENSE_PROBABILITIES} classes;
 * beyond that a sparse vector holding only the top-k classes' probabilities, so a row carries O(k),
 * not O(K), numbers however many classes there are.
 */
public final class LargecatClassificationModel extends Model<LargecatClassificationModel>
    implements LargecatParams, MLWritable {
  /** The most classes whose probabilities every row carries in full. */
  public static final int DENSE_PROBABILITIES = 1000;

  /** The model file's name in a saved model's directory. */
  public static final String MODEL_FILE = "model.bin";

  private final String uid;
  private final ScoreModel model;
  private final Declared declared;

  /** Wraps {@code model}, with the default column names and top-k. */
  public LargecatClassificationModel(String uid, ScoreModel model) {
    this.uid = uid;
    this.model = model;
    declared = new Declared(this);
  }

  /**
   * The model in the model file at {@code path} (any Hadoop file system), as {@code largecat train}
   * writes it.
   */
  public static LargecatClassificationModel readModelFile(SparkSession spark, String path) {
    return new LargecatClassificationModel(
        org.apache.spark.ml.util.Identifiable$.MODULE$.randomUID("largecat"),
        readFile(spark, new org.apache.hadoop.fs.Path(path)));
  }

  @Override
  public String uid() {
    return uid;
  }

  /** The single-machine model: linear or factorized, with its link. */
  public ScoreModel scoreModel() {
    return model;
  }

  /** K. */
  public int numClasses() {
    return model.classes();
  }

  /** D. */
  public int numFeatures() {
    return model.columns();
  }

  @Override
  public Declared declared() {
    return declared;
  }

  public LargecatClassificationModel setLabelCol(String value) {
    return (LargecatClassificationModel) set(labelCol(), value);
  }

  public LargecatClassificationModel setFeaturesCol(String value) {
    return (LargecatClassificationModel) set(featuresCol(), value);
  }

  public LargecatClassificationModel setPredictionCol(String value) {
    return (LargecatClassificationModel) set(predictionCol(), value);
  }

  public LargecatClassificationModel setProbabilityCol(String value) {
    return (LargecatClassificationModel) set(probabilityCol(), value);
  }

  public LargecatClassificationModel setTopKCol(String value) {
    return (LargecatClassificationModel) set(topKCol(), value);
  }

  public LargecatClassificationModel setTopK(int value) {
    return (LargecatClassificationModel) set(topK(), value);
  }

  /**
   * The exact mean test log-likelihood, accuracy and top-k accuracy of the model on {@code data}'s
   * {@code labelCol} and {@code featuresCol}, in one distributed pass.
   */
  public Evaluation.Result evaluate(Dataset<?> data) {
    return DistributedEvaluation.evaluate(
        data.toDF(),
        getOrDefault(labelCol()),
        getOrDefault(featuresCol()),
        model,
        (Integer) getOrDefault(topK()));
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return outputSchema(
        schema,
        getOrDefault(featuresCol()),
        getOrDefault(predictionCol()),
        getOrDefault(probabilityCol()),
        getOrDefault(topKCol()));
  }

  /** {@code schema} with the three output columns, refusing a missing input or a taken output. */
  static StructType outputSchema(
      StructType schema, String features, String prediction, String probability, String topK) {
    Columns.requireFeatures(schema, features);
    for (String output : new String[] {prediction, probability, topK}) {
      Columns.requireAbsent(schema, output);
    }
    return schema
        .add(prediction, DataTypes.DoubleType, false)
        .add(probability, SQLDataTypes.VectorType(), false)
        .add(topK, DataTypes.createArrayType(DataTypes.IntegerType, false), false);
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType schema = transformSchema(dataset.schema(), true);
    int features = dataset.schema().fieldIndex(getOrDefault(featuresCol()));
    int k = Math.min((Integer) getOrDefault(topK()), model.classes());
    Broadcast<ShippedModel> shipped =
        dataset
            .sparkSession()
            .sparkContext()
            .broadcast(ShippedModel.of(model), ClassTag$.MODULE$.apply(ShippedModel.class));
    return dataset
        .toDF()
        .mapPartitions(
            (org.apache.spark.api.java.function.MapPartitionsFunction<Row, Row>)
                rows -> new Predictions(rows, shipped.value().model(), features, k),
            Encoders.row(schema));
  }

  /** A partition's rows, each with its prediction, probabilities and top-k classes appended. */
  private static final class Predictions implements Iterator<Row> {
    private final Iterator<Row> rows;
    private final ScoreModel model;
    private final int features;
    private final Predictor predictor;
    private final double[] psi;
    private final double[] logP;
    private final int[] best;

    Predictions(Iterator<Row> rows, ScoreModel model, int features, int k) {
      this.rows = rows;
      this.model = model;
      this.features = features;
      this.predictor = new Predictor(model, ExecutorKernels.get());
      this.psi = new double[model.classes()];
      this.logP = new double[model.classes()];
      this.best = new int[k];
    }

    @Override
    public boolean hasNext() {
      return rows.hasNext();
    }

    @Override
    public Row next() {
      Row row = rows.next();
      predictor.utilities(features(row), 0, psi);
      predictor.logProbabilities(psi, logP);
      ClassRanks.topClasses(logP, best);
      Object[] values = new Object[row.size() + 3];
      for (int i = 0; i < row.size(); i++) {
        values[i] = row.get(i);
      }
      values[row.size()] = (double) best[0];
      values[row.size() + 1] = probabilities();
      Integer[] top = new Integer[best.length];
      for (int i = 0; i < best.length; i++) {
        top[i] = best[i];
      }
      values[row.size() + 2] = ArraySeq.unsafeWrapArray(top);
      return RowFactory.create(values);
    }

    private Vector probabilities() {
      int classes = logP.length;
      if (classes <= DENSE_PROBABILITIES) {
        double[] p = new double[classes];
        for (int c = 0; c < classes; c++) {
          p[c] = Math.exp(logP[c]);
        }
        return new DenseVector(p);
      }
      int[] indices = best.clone();
      java.util.Arrays.sort(indices);
      double[] p = new double[indices.length];
      for (int i = 0; i < indices.length; i++) {
        p[i] = Math.exp(logP[indices[i]]);
      }
      return Vectors.sparse(classes, indices, p);
    }

    /** The row's features as a one-row {@link Features} of the model's D. */
    private Features features(Row row) {
      if (row.isNullAt(features)) {
        throw new IllegalArgumentException("a row's features are null");
      }
      Vector x = row.getAs(features);
      int columns = model.columns();
      if (x.size() != columns) {
        throw new IllegalArgumentException(
            "a row's features have size " + x.size() + " but the model has D = " + columns);
      }
      if (x instanceof SparseVector sparse) {
        int[] indices = sparse.indices();
        return new SparseFeatures(
            1, columns, new int[] {0, indices.length}, indices, floats(sparse.values()));
      }
      return new DenseFeatures(1, columns, floats(x.toArray()));
    }

    private static float[] floats(double[] values) {
      float[] f = new float[values.length];
      for (int i = 0; i < values.length; i++) {
        f[i] = (float) values[i];
      }
      return f;
    }
  }

  @Override
  public LargecatClassificationModel copy(ParamMap extra) {
    LargecatClassificationModel copy = new LargecatClassificationModel(uid, model);
    copy.setParent(parent());
    return copyValues(copy, extra);
  }

  @Override
  public MLWriter write() {
    return new Writer(this);
  }

  public static MLReader<LargecatClassificationModel> read() {
    return new Reader();
  }

  public static LargecatClassificationModel load(String path) {
    return read().load(path);
  }

  /** Spark ML's metadata, then the model file, written locally and copied to the file system. */
  private static final class Writer extends MLWriter {
    private final LargecatClassificationModel stage;

    Writer(LargecatClassificationModel stage) {
      this.stage = stage;
    }

    @Override
    public void saveImpl(String path) {
      DefaultParamsWriter$.MODULE$.saveMetadata(stage, path, sparkSession());
      org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(path, MODEL_FILE);
      try {
        Path local = Files.createTempFile("largecat-model", ".bin");
        try {
          ModelFile.write(stage.model, local);
          FileSystem fs = target.getFileSystem(sparkSession().sparkContext().hadoopConfiguration());
          fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toUri()), target);
        } finally {
          Files.deleteIfExists(local);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot save the model to " + target, e);
      }
    }
  }

  private static final class Reader extends MLReader<LargecatClassificationModel> {
    @Override
    public LargecatClassificationModel load(String path) {
      DefaultParamsReader.Metadata metadata =
          DefaultParamsReader$.MODULE$.loadMetadata(
              path, sparkSession(), LargecatClassificationModel.class.getName());
      LargecatClassificationModel stage =
          new LargecatClassificationModel(
              metadata.uid(),
              readFile(sparkSession(), new org.apache.hadoop.fs.Path(path, MODEL_FILE)));
      metadata.getAndSetParams(stage, scala.Option.empty());
      return stage;
    }
  }

  /** The model file at {@code file}, copied from its file system to a local one to be read. */
  private static ScoreModel readFile(SparkSession spark, org.apache.hadoop.fs.Path file) {
    try {
      Path local = Files.createTempFile("largecat-model", ".bin");
      try {
        FileSystem fs = file.getFileSystem(spark.sparkContext().hadoopConfiguration());
        fs.copyToLocalFile(false, file, new org.apache.hadoop.fs.Path(local.toUri()), true);
        return ModelFile.readScoreModel(local);
      } finally {
        Files.deleteIfExists(local);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the model file " + file + ": " + e.getMessage(), e);
    }
  }
}
