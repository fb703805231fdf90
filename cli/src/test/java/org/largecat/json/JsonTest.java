package org.largecat.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  record Sample(
      String methodName,
      double testTop5,
      Double missing,
      double[] trace,
      double[][] rows,
      boolean done) {}

  @Test
  void componentsBecomeSnakeCaseKeysAndNonFiniteNumbersNull() {
    assertEquals(
        "{\"method_name\":\"a \\\"b\\\" <c>\",\"test_top5\":null,\"missing\":null,"
            + "\"trace\":[1.5,null,null],\"rows\":[[0.25],[null]],\"done\":true}",
        Json.line(
            new Sample(
                "a \"b\" <c>",
                Double.NaN,
                null,
                new double[] {1.5, Double.NEGATIVE_INFINITY, Double.NaN},
                new double[][] {{0.25}, {Double.POSITIVE_INFINITY}},
                true)));
  }

  @Test
  void mapsKeepTheirKeysAndOrder() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("k", 12);
    row.put("w_cbc", Double.NaN);
    row.put("note", null);
    assertEquals("[{\"k\":12,\"w_cbc\":null,\"note\":null}]", Json.line(List.of(row)));
  }

  @Test
  void theKeyConventionIsLowerCaseWordsAndDigitsJoinedBySingleUnderscores() {
    for (String key : Arrays.asList("k", "test_top5", "n_train", "log_evidence_cbc")) {
      assertTrue(Json.SNAKE_CASE.matcher(key).matches(), key);
    }
    for (String key :
        Arrays.asList("K", "meanLogLikelihood", "umax-raman", "_a", "a__b", "a_", "")) {
      assertFalse(Json.SNAKE_CASE.matcher(key).matches(), key);
    }
  }
}
