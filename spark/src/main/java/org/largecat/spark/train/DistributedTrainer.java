package org.largecat.spark.train;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import org.largecat.data.Dataset;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;
import org.largecat.spark.data.PartitionRows;
import org.largecat.spark.eval.Columns;
import org.largecat.spark.eval.ShippedModel;
import org.largecat.train.SampledSpec;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;
import scala.Function1;
import scala.Function2;
import scala.reflect.ClassTag$;
import scala.runtime.BoxedUnit;

/**
 * The sampled trainers data-parallel over a DataFrame's partitions, as a {@link Trainer} that
 * {@link org.largecat.train.TrainingRun} drives, stopping rule included. One {@link #step} is a
 * round: the driver broadcasts its model; every partition copies it into its own and runs its share
 * of an epoch's iterations (1/R of its mini-batches) with the single-machine trainer's step on its
 * own rows ({@link PartitionTrainer}, one thread each); the driver then adds the sum of the
 * partitions' changes to its model. The rows are read once and never leave their partition; each
 * partition's trainer, with its per-example state (A&R's η_n, the local step counts), its adaptive
 * step state and its batch order, is one element of an RDD cached in memory and updated in place by
 * each round's job. (A new RDD per round would chain every round's closure, and so its destroyed
 * broadcast, into the next round's tasks.)
 *
 * <p>Summing the changes, not averaging them: P partitions each run 1/P of an epoch's iterations,
 * so the sum makes the single machine's progress per epoch and the average only 1/P of it. On the
 * synthetic softmax set of DistributedTrainerTest (K = 20, 5 epochs; single machine −2.0686 A&R,
 * −2.0665 OVE), the average ended at −2.090 / −2.084 with 2 partitions and −2.137 / −2.133 with 4,
 * whatever R, while the sum ended at −2.064 / −2.062 with 2 and 4 partitions at R = 10. With R = 1
 * and 4 partitions the sum lags (−2.185 A&R): a round's changes are made from a stale model, so R
 * must grow with P.
 *
 * <p>Each change travels to the driver as a {@link ModelChange}, dense or the changed entries only,
 * whichever is smaller: a round moves the model once and P changes of at most its size
 * (docs/scaling.md), and Spark's {@code spark.driver.maxResultSize} must exceed their sum.
 *
 * <p>A run is reproducible for a seed and a fixed partitioning: each partition's trainer draws from
 * a seed derived from the run's and its index, on one thread, and the driver adds the partitions'
 * changes in partition order.
 */
public final class DistributedTrainer implements Trainer {
  private final SparkContext spark;
  private final ModelParameters global;
  private final ShippedModel shipped;
  private final int roundsPerEpoch;
  private final int partitions;
  private final int trainingPartitions;
  private final long rows;
  private final JavaRDD<PartitionTrainer> states;
  private int round;
  private double stepScale = 1;

  /**
   * Prepares to train {@code model} in place on the rows of {@code data}: class indices in column
   * {@code labelCol}, Spark ML vectors of size D in {@code featuresCol}; reads and caches each
   * partition's rows once (a bad row fails here, naming its position).
   *
   * @param spec the single-machine spec, a {@link SampledSpec}; its {@code threads} is ignored (one
   *     per partition)
   * @param roundsPerEpoch R, the rounds an epoch is cut into: every partition must have at least R
   *     mini-batches
   */
  public DistributedTrainer(
      org.apache.spark.sql.Dataset<Row> data,
      String labelCol,
      String featuresCol,
      ScoreModel model,
      TrainerSpec spec,
      int roundsPerEpoch) {
    if (!(spec instanceof SampledSpec options)) {
      throw new IllegalArgumentException(
          spec.method().label()
              + " has no data-parallel trainer; the sampled-bound methods have (ar-softmax, ove,"
              + " ar-probit, ar-logistic, exact-softmax-sgd, nce, is)");
    }
    if (model.link() != options.method().link()) {
      throw new IllegalArgumentException(
          options.method().label()
              + " fits a "
              + options.method().link()
              + " model, not "
              + model.link());
    }
    if (roundsPerEpoch < 1) {
      throw new IllegalArgumentException("roundsPerEpoch = " + roundsPerEpoch + " must be >= 1");
    }
    Columns.requireLabel(data.schema(), labelCol);
    Columns.requireFeatures(data.schema(), featuresCol);
    this.spark = data.sparkSession().sparkContext();
    this.global = ModelParameters.of(model);
    this.shipped = ShippedModel.of(model);
    this.roundsPerEpoch = roundsPerEpoch;
    int classes = model.classes();
    int columns = model.columns();
    Link link = model.link();
    int rank = shipped.rank();
    states =
        data.select(labelCol, featuresCol)
            .javaRDD()
            .mapPartitionsWithIndex(
                (p, it) -> {
                  Dataset rows = PartitionRows.read(it, 0, 1, columns, classes);
                  ScoreModel copy =
                      rows.rows() == 0 ? null : ShippedModel.zeros(link, classes, columns, rank);
                  return List.of(new PartitionTrainer(p, rows, copy, options, roundsPerEpoch))
                      .iterator();
                },
                true)
            .persist(StorageLevel.MEMORY_ONLY());
    List<Integer> sizes = states.map(PartitionTrainer::rows).collect();
    this.partitions = sizes.size();
    this.trainingPartitions = (int) sizes.stream().filter(n -> n > 0).count();
    this.rows = sizes.stream().mapToLong(Integer::longValue).sum();
    if (trainingPartitions == 0) {
      throw new IllegalArgumentException("the training DataFrame has no rows");
    }
  }

  /** The training rows, over every partition. */
  public long rows() {
    return rows;
  }

  /** The partitions that hold rows, whose changes each round sums. */
  public int trainingPartitions() {
    return trainingPartitions;
  }

  /** Runs one round and returns its estimate of the training objective, summed over partitions. */
  @Override
  public double step() {
    int r = ++round;
    double scale = stepScale;
    int perEpoch = roundsPerEpoch;
    // A copy: in local mode tasks read the broadcast object itself, and the driver adds the
    // changes that arrive first while later tasks still subtract the round's model from theirs.
    Broadcast<ShippedModel> model =
        spark.broadcast(shipped.copy(), ClassTag$.MODULE$.apply(ShippedModel.class));
    RoundSum sum = new RoundSum(global, partitions);
    spark.runJob(
        states.rdd(),
        (Function1<scala.collection.Iterator<PartitionTrainer>, RoundResult> & Serializable)
            it -> {
              PartitionTrainer state = it.next().round(r, model.value(), perEpoch, scale);
              return state.trains() ? state.result() : null;
            },
        (Function2<Object, RoundResult, BoxedUnit>)
            (index, result) -> {
              sum.add((Integer) index, result);
              return BoxedUnit.UNIT;
            },
        ClassTag$.MODULE$.apply(RoundResult.class));
    model.destroy();
    return sum.bound;
  }

  /** R: rounds are the iterations, R of them an epoch. */
  @Override
  public int iterationsPerEpoch() {
    return roundsPerEpoch;
  }

  @Override
  public void scaleStepSize(double factor) {
    stepScale *= factor;
  }

  /** Drops the partitions' cached trainers (they run on Spark's threads and hold none). */
  @Override
  public void close() {
    states.unpersist(false);
  }

  /**
   * Adds the partitions' changes to the driver's model in partition order whatever order they
   * arrive in, holding only those that arrive ahead of their turn, so that the sum is the same from
   * run to run; and sums their bound estimates.
   */
  private static final class RoundSum {
    private final ModelParameters global;
    private final RoundResult[] waiting;
    private final boolean[] arrived;
    private int next;
    double bound;

    RoundSum(ModelParameters global, int partitions) {
      this.global = global;
      waiting = new RoundResult[partitions];
      arrived = new boolean[partitions];
    }

    void add(int partition, RoundResult result) {
      waiting[partition] = result;
      arrived[partition] = true;
      for (; next < arrived.length && arrived[next]; next++) {
        RoundResult r = waiting[next];
        waiting[next] = null;
        if (r != null) {
          r.change().addTo(global);
          bound += r.bound();
        }
      }
    }
  }
}
