package org.largecat.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.largecat.experiments.Vocab.Point;
import org.largecat.experiments.Vocab.Verdict;

class VocabTest {
  private static final List<Point> FASTTEXT =
      List.of(
          new Point("fasttext", "hs", "-", 50, 5, 25, 0.110),
          new Point("fasttext", "hs", "-", 200, 5, 58, 0.113),
          new Point("fasttext", "hs", "-", 200, 10, 187, 0.113),
          new Point("fasttext", "hs", "-", 100, 10, 109, 0.111));

  /**
   * fastText's best is its most accurate run, the faster of a tie; largecat's point is the
   * factorized one above it in the least time, the linear model not counting however fast.
   */
  @Test
  void comparesTheFirstFactorizedPointAboveFastTextsBestRun() {
    List<Point> largecat =
        List.of(
            new Point("largecat", "linear", "shared", 12544, 1, 10, 0.2),
            new Point("largecat", "factorized", "per-example", 100, 1, 22, 0.121),
            new Point("largecat", "factorized", "shared", 100, 1, 3, 0.112),
            new Point("largecat", "factorized", "shared", 100, 2, 6, 0.124),
            new Point("largecat", "factorized", "shared", 100, 3, 9, 0.130));
    Verdict verdict = Verdict.of(FASTTEXT, largecat);
    assertEquals(FASTTEXT.get(1), verdict.fastText());
    assertEquals(largecat.get(3), verdict.largecat());
    assertTrue(verdict.above());
    assertTrue(verdict.holds());
  }

  /** Above fastText's accuracy but in more time than its best run: the criterion fails. */
  @Test
  void aboveButSlowerDoesNotHold() {
    Point slow = new Point("largecat", "factorized", "per-example", 100, 3, 60, 0.115);
    Verdict verdict = Verdict.of(FASTTEXT, List.of(slow));
    assertTrue(verdict.above());
    assertFalse(verdict.holds());
  }

  /** No factorized point above: the most accurate one is shown, and the criterion fails. */
  @Test
  void noPointAboveShowsTheMostAccurate() {
    List<Point> largecat =
        List.of(
            new Point("largecat", "factorized", "shared", 100, 1, 3, 0.105),
            new Point("largecat", "factorized", "shared", 100, 2, 6, 0.113),
            new Point("largecat", "factorized", "shared", 100, 3, 9, 0.108));
    Verdict verdict = Verdict.of(FASTTEXT, largecat);
    assertEquals(largecat.get(1), verdict.largecat());
    assertFalse(verdict.above());
    assertFalse(verdict.holds());
  }

  @Test
  void rejectsAVerdictWithoutFactorizedPoints() {
    List<Point> linearOnly = List.of(new Point("largecat", "linear", "shared", 12544, 1, 10, 0.2));
    assertThrows(IllegalArgumentException.class, () -> Verdict.of(FASTTEXT, linearOnly));
  }
}
