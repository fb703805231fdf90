package org.largecat.json;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.Map;

/**
 * Parses JSON the command wrote, checking that every key of every object, however deep, is
 * snake_case.
 */
public final class SnakeCaseJson {
  private SnakeCaseJson() {}

  /** The parsed document; fails the test on malformed JSON or a key that is not snake_case. */
  public static JsonElement parse(String json) {
    JsonElement root = JsonParser.parseString(json);
    checkKeys(root, "$");
    return root;
  }

  /** The parsed document, which must be one object. */
  public static JsonObject parseObject(String json) {
    JsonElement root = parse(json);
    assertTrue(root.isJsonObject(), "not an object: " + json);
    return root.getAsJsonObject();
  }

  private static void checkKeys(JsonElement element, String path) {
    if (element.isJsonObject()) {
      for (Map.Entry<String, JsonElement> field : element.getAsJsonObject().entrySet()) {
        assertTrue(
            Json.SNAKE_CASE.matcher(field.getKey()).matches(),
            path + "." + field.getKey() + " is not snake_case");
        checkKeys(field.getValue(), path + "." + field.getKey());
      }
    } else if (element.isJsonArray()) {
      for (int i = 0; i < element.getAsJsonArray().size(); i++) {
        checkKeys(element.getAsJsonArray().get(i), path + "[" + i + "]");
      }
    }
  }
}
