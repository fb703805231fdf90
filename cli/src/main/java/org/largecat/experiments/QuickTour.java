package org.largecat.experiments;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.largecat.kernel.Kernels;

/**
 * {@code largecat reproduce quick}, the README's main job: the quick form of every experiment that
 * runs on generated data, one after another, with every table and figure in one directory. It needs
 * no dataset package and takes about a minute on two cores.
 */
final class QuickTour {
  /** In the order they run: the cheapest first, so a user sees results early. */
  private static final List<Experiment> PARTS =
      List.of(
          Experiment.AR_LINEAR,
          Experiment.CB_BMA,
          Experiment.CB_TIME,
          Experiment.DOUBLE_SUM,
          Experiment.SYNTH_FIDELITY,
          Experiment.AR_SYNTHETIC);

  private QuickTour() {}

  static ExperimentResult run(ExperimentSettings settings) throws IOException {
    ExperimentSettings quick =
        new ExperimentSettings(
            true,
            settings.threads(),
            settings.out(),
            settings.data(),
            settings.sampling(),
            settings.iterations(),
            settings.err());
    settings
        .err()
        .println(
            "quick: "
                + PARTS.size()
                + " experiments on generated data, "
                + settings.threads()
                + " threads, "
                + Kernels.get().describeChoice());
    List<ExperimentResult> results = new ArrayList<>();
    for (Experiment part : PARTS) {
      long start = System.nanoTime();
      results.add(part.produce(quick));
      settings
          .err()
          .printf("quick: %s done in %.1f s%n", part.label(), (System.nanoTime() - start) * 1e-9);
    }
    return ExperimentResult.concat(results);
  }
}
