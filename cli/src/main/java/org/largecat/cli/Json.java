package org.largecat.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** One flat JSON object, fields in insertion order; non-finite numbers become null. */
final class Json {
  private final Map<String, Object> fields = new LinkedHashMap<>();

  Json put(String name, Object value) {
    fields.put(name, value);
    return this;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("{");
    for (Map.Entry<String, Object> e : fields.entrySet()) {
      if (s.length() > 1) {
        s.append(", ");
      }
      s.append(quote(e.getKey())).append(": ").append(value(e.getValue()));
    }
    return s.append('}').toString();
  }

  private static String value(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Double d) {
      return Double.isFinite(d) ? Double.toString(d) : "null";
    }
    if (v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    return quote(v.toString());
  }

  private static String quote(String s) {
    StringBuilder q = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> q.append("\\\"");
        case '\\' -> q.append("\\\\");
        case '\n' -> q.append("\\n");
        default -> {
          if (c < 0x20) {
            q.append(String.format("\\u%04x", (int) c));
          } else {
            q.append(c);
          }
        }
      }
    }
    return q.append('"').toString();
  }
}
