package org.largecat.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.largecat.data.SparseFeatures;

class KjvNextWordTest {

  @Test
  void wordsDropTheReferenceLowerCaseAndSplitAtApostrophesAndHyphens() throws IOException {
    String output =
        """
        Ge1:1 In the beginning God created the heaven and the earth.
        1Sm2:3 Talk no more so exceeding proudly; Noah's loving-kindness (selah)!

        Rev22:21 Amen.
        """;
    assertEquals(
        List.of(
            "in",
            "the",
            "beginning",
            "god",
            "created",
            "the",
            "heaven",
            "and",
            "the",
            "earth",
            "talk",
            "no",
            "more",
            "so",
            "exceeding",
            "proudly",
            "noah",
            "s",
            "loving",
            "kindness",
            "selah",
            "amen"),
        KjvNextWord.words(new StringReader(output)));
  }

  @Test
  void aLineWithoutAVerseReferenceIsAnError() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> KjvNextWord.words(new StringReader("Ge1:1 In the\nbeginning\n")));
    assertTrue(
        e.getMessage().contains("line 2 does not start with a verse reference"), e.getMessage());
  }

  @Test
  void featuresArePrecedingWordsWeightedOneOverDistanceNearestKept() {
    // counts: a 5, b 4, c 2, d 2 -> ids a 0, b 1, then the tie c 2, d 3 alphabetically
    List<String> words = List.of("a", "b", "a", "c", "a", "b", "a", "c", "b", "a", "d", "b", "d");
    PreparedSet set = KjvNextWord.build(words, 3, "inline");
    assertEquals(List.of("a", "b", "c", "d"), set.classNames());
    int rows = words.size() - 3;
    assertEquals(rows - rows / 10, set.train().rows());
    assertEquals(rows / 10, set.test().rows());
    assertEquals(4, set.train().columns());
    assertEquals(4, set.train().classes());
    SparseFeatures x = (SparseFeatures) set.train().features();
    // Example 0 is words[3] = c after "a b a": a nearest at distance 1, b at 2.
    assertEquals(2, set.train().labels()[0]);
    assertArrayEquals(
        new int[] {0, 1}, Arrays.copyOfRange(x.indices(), x.indptr()[0], x.indptr()[1]));
    assertArrayEquals(
        new float[] {1f, 0.5f}, Arrays.copyOfRange(x.values(), x.indptr()[0], x.indptr()[1]));
    // Example 1 is words[4] = a after "b a c": three distinct words at distances 3, 2, 1.
    assertEquals(0, set.train().labels()[1]);
    assertEquals(1f / 2, x.get(1, 0));
    assertEquals(1f / 3, x.get(1, 1));
    assertEquals(1f, x.get(1, 2));
    // The test set is the last of the 10 examples: d after "a d b".
    assertArrayEquals(new int[] {3}, set.test().labels());
    assertEquals(1f / 3, set.test().features().get(0, 0));
    assertEquals(1f, set.test().features().get(0, 1));
    assertEquals(1f / 2, set.test().features().get(0, 3));
    assertThrows(
        IllegalArgumentException.class, () -> KjvNextWord.build(words.subList(0, 12), 3, "inline"));
  }
}
