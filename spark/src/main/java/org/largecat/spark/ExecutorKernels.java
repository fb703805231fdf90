package org.largecat.spark;

import java.util.logging.Logger;
import org.largecat.kernel.Kernels;

/**
 * The kernels of this JVM, for code that runs inside a Spark task. The backends are chosen once per
 * executor JVM, exactly as on one machine ({@link Kernels#get}), and the choice is logged to the
 * executor's log with the executor's id, so a job's log says which backend ran where.
 */
public final class ExecutorKernels {
  private static final Logger LOG = Logger.getLogger(ExecutorKernels.class.getName());

  private ExecutorKernels() {}

  private static final class Holder {
    static final Kernels KERNELS = chosen();

    private static Kernels chosen() {
      Kernels kernels = Kernels.get();
      LOG.info(
          () -> "largecat kernels on executor " + executorId() + ": " + kernels.describeChoice());
      return kernels;
    }
  }

  /** The kernels of this JVM, chosen (and logged) on first use. */
  public static Kernels get() {
    return Holder.KERNELS;
  }

  private static String executorId() {
    org.apache.spark.SparkEnv env = org.apache.spark.SparkEnv.get();
    return env == null ? "(no Spark environment)" : env.executorId();
  }
}
