package org.largecat.json;

import com.google.gson.FieldNamingPolicy;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonNull;
import com.google.gson.JsonPrimitive;
import com.google.gson.JsonSerializer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.largecat.AtomicWrite;

/**
 * The one JSON writer of everything the command prints with {@code --json} or writes to a file:
 * records' components as snake_case keys ({@code testLoglik} becomes {@code test_loglik}), and null
 * for a figure that is absent, NaN or infinite (JSON has no NaN; either way there is no figure).
 */
public final class Json {
  /** The key convention: lower-case words and digits joined by single underscores. */
  public static final Pattern SNAKE_CASE = Pattern.compile("^[a-z0-9]+(_[a-z0-9]+)*$");

  private static final JsonSerializer<Double> FINITE_OR_NULL =
      (value, type, context) ->
          Double.isFinite(value) ? new JsonPrimitive(value) : JsonNull.INSTANCE;

  private static final Gson GSON =
      new GsonBuilder()
          .setFieldNamingPolicy(FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
          .serializeNulls()
          .registerTypeAdapter(Double.class, FINITE_OR_NULL)
          .registerTypeAdapter(double.class, FINITE_OR_NULL)
          .disableHtmlEscaping()
          .create();

  private static final Gson INDENTED = GSON.newBuilder().setPrettyPrinting().create();

  private Json() {}

  /** {@code value} on one line, for standard output. */
  public static String line(Object value) {
    return GSON.toJson(value);
  }

  /**
   * Writes {@code value} to {@code file}, indented, with a final line break, whole or not at all.
   */
  public static void write(Path file, Object value) throws IOException {
    AtomicWrite.writeString(file, INDENTED.toJson(value) + "\n");
  }
}
