package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.cli.spark.SparkRun;
import org.largecat.cli.spark.SparkSessions;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.TextFormat;
import org.largecat.fit.Fitter;
import org.largecat.model.LinearModel;
import org.largecat.model.ModelFile;
import org.largecat.spark.data.InputFormat;
import org.largecat.spark.data.Inputs;
import org.largecat.spark.data.LabeledFrame;
import org.largecat.spark.train.LargecatClassifier;
import org.largecat.train.Method;

/**
 * The training flow exists once: {@code largecat train} and a program's {@link Fitter} give the
 * same model bit for bit, and so do {@code largecat spark train} and the Spark ML stage on the same
 * partitions (the data-parallel trainer against one machine's: DistributedTrainerTest).
 */
class OneFlowTest {
  @TempDir Path dir;

  @Test
  void trainSparkTrainAndTheMlStageFitTheSameModel() throws Exception {
    String train = dir.resolve("train.txt").toString();
    CommandRun synth =
        CommandRun.of(
            "data",
            "synth",
            "softmax",
            "--rows",
            "4000",
            "--columns",
            "8",
            "--classes",
            "15",
            "--seed",
            "4",
            "--out",
            train);
    assertEquals(0, synth.status(), synth.err());
    String[] fit = {"--method", "ar-softmax", "--epochs", "2", "--seed", "7", "--batch", "100"};

    Path local = dir.resolve("local.bin");
    CommandRun command =
        CommandRun.of(
            concat(
                new String[] {
                  "train", "--train", train, "--threads", "2", "--model", local.toString()
                },
                fit));
    assertEquals(0, command.status(), command.err());
    ReadOptions xc = ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION);
    Dataset data = DataFiles.denseIfFull(DatasetReader.read(Path.of(train), xc));
    LinearModel program =
        (LinearModel)
            Fitter.softmax()
                .method(Method.AR_SOFTMAX)
                .epochs(2)
                .seed(7)
                .batch(100)
                .threads(2)
                .fit(data)
                .model();
    assertSameModel(ModelFile.read(local), program);

    Path spark = dir.resolve("spark.bin");
    CommandRun sparkCommand =
        CommandRun.of(
            concat(
                new String[] {
                  "spark",
                  "train",
                  "--train",
                  train,
                  "--master",
                  "local[2]",
                  "--partitions",
                  "2",
                  "--model",
                  spark.toString()
                },
                fit));
    assertEquals(0, sparkCommand.status(), sparkCommand.err());
    SparkSession session =
        SparkSessions.start(new SparkRun("local[2]", Map.of(), 2, "OneFlowTest", false));
    LinearModel stage;
    try {
      LabeledFrame frame = Inputs.read(session, train, InputFormat.XC, xc, 2);
      stage =
          (LinearModel)
              new LargecatClassifier()
                  .setMethod("ar-softmax")
                  .setStopping(false)
                  .setEpochs(2)
                  .setSeed(7)
                  .setBatchSize(100)
                  .fit(frame.frame())
                  .scoreModel();
    } finally {
      session.stop();
    }
    assertSameModel(ModelFile.read(spark), stage);
  }

  private static void assertSameModel(LinearModel want, LinearModel got) {
    assertArrayEquals(want.weights(), got.weights());
    assertArrayEquals(want.biases(), got.biases());
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
