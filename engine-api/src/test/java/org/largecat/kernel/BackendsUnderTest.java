package org.largecat.kernel;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * The backends a test run covers: every available backend on the class path, each with its own
 * families (the rest inherited). The system property {@code largecat.test.requiredBackends} (a
 * comma list) names backends that must be among them, so a silent fallback fails the run.
 */
public final class BackendsUnderTest {
  public static final String REQUIRED_PROPERTY = "largecat.test.requiredBackends";

  private BackendsUnderTest() {}

  /** Each available backend's kernels, named by the backend, for {@code @MethodSource}. */
  public static Stream<Named<Kernels>> all() {
    return Kernels.catalog().entries().stream()
        .filter(BackendCatalog.Entry::available)
        .map(e -> Named.of(e.name(), Kernels.of(e.name())));
  }

  /** The available backends other than the scalar reference, for cross-validation. */
  public static Stream<Named<Kernels>> nonReference() {
    return all().filter(n -> !n.getName().equals("scalar"));
  }

  /** The backends the run must cover. */
  public static List<String> required() {
    String v = System.getProperty(REQUIRED_PROPERTY, "scalar");
    return Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }
}
