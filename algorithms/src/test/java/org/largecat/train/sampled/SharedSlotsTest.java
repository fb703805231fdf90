package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SharedSlotsTest {
  /**
   * Against the pass over S of {@link ClassSampler#excludeLabel}, for every class as the label, on
   * sets drawn with replacement from few classes (so that classes fill several slots), each indexed
   * after another set: the excluded weights are the same, and restoring gives the shared ones back.
   */
  @Test
  void excludesEverySlotOfTheLabelAsThePassOverSDoes() {
    int classes = 12;
    int sampled = 20;
    SplittableRandom random = new SplittableRandom(4);
    SharedSlots slots = new SharedSlots(classes, sampled);
    for (int set = 0; set < 5; set++) {
      int[] rows = random.ints(sampled, 0, set % 2 == 0 ? classes : 4).toArray();
      double[] shared = random.doubles(sampled, 0.5, 3).toArray();
      double[] sharedLog = Arrays.stream(shared).map(Math::log).toArray();
      slots.index(rows);
      double[] weight = shared.clone();
      double[] logWeight = sharedLog.clone();
      for (int label = 0; label < classes; label++) {
        double[] expected = new double[sampled];
        double[] expectedLog = new double[sampled];
        ClassSampler.excludeLabel(
            label, rows, 0, shared, sharedLog, sampled, expected, expectedLog);
        slots.exclude(label, weight, logWeight);
        assertArrayEquals(expected, weight, "set " + set + ", label " + label);
        assertArrayEquals(expectedLog, logWeight, "set " + set + ", label " + label);
        slots.restore(label, shared, sharedLog, weight, logWeight);
        assertArrayEquals(shared, weight);
        assertArrayEquals(sharedLog, logWeight);
      }
    }
  }
}
