package org.largecat.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Every backend this JVM knows of and whether it can run: the ones on the class path, found with
 * {@link ServiceLoader}, and the standard ones that are missing from it. A backend is probed (its
 * {@link KernelBackend#load()} called) only when it is first asked for: loading one can mean
 * linking a native library or extracting one to a temporary directory, and {@code auto} needs only
 * the first backends of each family's order.
 */
public final class BackendCatalog {

  /** The standard backends, in the order they are listed. */
  public static final List<String> AUTO_ORDER =
      List.of("native", "simd", "blas", "jblas", "scalar");

  /**
   * The order in which {@code auto} prefers backends for a family, fastest first, from JMH runs on
   * AVX-512 machines (the figures are in docs/performance.md). The C kernels win the vector ops
   * (dot, gather-dot, the sampled step); they take the special functions too, which the Vector API
   * computes faster one function at a time but only once C2 has compiled it: the probit CAVI's
   * fused pass runs as fast in C at steady state and needs no warm-up, where the Vector API's first
   * iteration runs its Java fallbacks for seconds. The Vector API wins the lock-step implicit
   * updates; blas (netlib on the system OpenBLAS) beats jblas (its bundled OpenBLAS, every array
   * copied across JNI) at every gemm shape measured.
   */
  public static List<String> autoOrder(KernelFamily family) {
    return switch (family) {
      case VECTOR_OPS, SPECIAL_FUNCTIONS -> List.of("native", "simd", "blas", "jblas", "scalar");
      case IMPLICIT_UPDATES -> List.of("simd", "native", "blas", "jblas", "scalar");
      case MATRIX_OPS -> List.of("blas", "jblas", "native", "simd", "scalar");
    };
  }

  /** The reason of a standard backend whose module is missing from the class path. */
  static final String NOT_ON_CLASS_PATH = "not on the class path";

  /** Which artifact each standard backend comes from, for the "not on the class path" fix. */
  private static final Map<String, String> MODULES =
      Map.of(
          "native",
          "native",
          "simd",
          "engine-simd",
          "blas",
          "engine-blas",
          "jblas",
          "engine-blas",
          "scalar",
          "engine-api");

  /** One backend's state. {@code families} is non-null exactly when it is available. */
  public record Entry(String name, KernelFamilies families, String reason, String fix) {
    public boolean available() {
      return families != null;
    }

    /**
     * What the backend loaded, from {@link KernelFamilies#detail()}; null if unavailable or silent.
     */
    public String detail() {
      return families == null ? null : families.detail();
    }
  }

  /** The backends on the class path by name. */
  private final Map<String, KernelBackend> backends;

  /**
   * Every name, standard ones in auto order, then any others, to its entry once probed (null
   * before).
   */
  private final Map<String, Entry> entries;

  private BackendCatalog(Map<String, KernelBackend> backends, Map<String, Entry> entries) {
    this.backends = backends;
    this.entries = entries;
  }

  /** Discovers the backends on the class path of this class's loader. */
  public static BackendCatalog discover() {
    List<KernelBackend> found = new ArrayList<>();
    ServiceLoader<KernelBackend> loader =
        ServiceLoader.load(KernelBackend.class, BackendCatalog.class.getClassLoader());
    for (ServiceLoader.Provider<KernelBackend> provider : loader.stream().toList()) {
      try {
        found.add(provider.get());
      } catch (ServiceConfigurationError e) {
        throw new IllegalStateException(
            "kernel backend " + provider.type().getName() + " could not be constructed", e);
      }
    }
    return of(found);
  }

  /**
   * The given backends, each probed when first asked for; the standard ones not among them are
   * recorded as absent.
   */
  public static BackendCatalog of(List<KernelBackend> backends) {
    Map<String, KernelBackend> found = new LinkedHashMap<>();
    for (KernelBackend backend : backends) {
      if (found.putIfAbsent(backend.name(), backend) != null) {
        throw new IllegalStateException("two kernel backends are named " + backend.name());
      }
    }
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (String name : AUTO_ORDER) {
      entries.put(
          name,
          found.containsKey(name)
              ? null
              : new Entry(
                  name,
                  null,
                  NOT_ON_CLASS_PATH,
                  "add org.largecat:"
                      + MODULES.get(name)
                      + " to the class path (depending on org.largecat:largecat brings every"
                      + " backend)"));
    }
    for (String name : found.keySet()) {
      entries.putIfAbsent(name, null);
    }
    return new BackendCatalog(found, entries);
  }

  private static Entry load(KernelBackend backend) {
    try {
      return new Entry(backend.name(), backend.load(), null, null);
    } catch (BackendUnavailableException e) {
      return new Entry(backend.name(), null, e.getMessage(), e.fix());
    }
  }

  /**
   * All entries, available or not, standard ones in auto order, then any others; probes every
   * backend.
   */
  public List<Entry> entries() {
    return names().stream().map(this::entry).toList();
  }

  /** Every backend's name, standard ones in auto order, then any others; probes none. */
  public List<String> names() {
    return List.copyOf(entries.keySet());
  }

  /**
   * The entry for a name, probing the backend if it has not been; null if no backend has that name.
   */
  public synchronized Entry entry(String name) {
    if (!entries.containsKey(name)) {
      return null;
    }
    Entry e = entries.get(name);
    if (e == null) {
      e = load(backends.get(name));
      entries.put(name, e);
    }
    return e;
  }

  /** The entry for a name if it is absent or has been probed, else null; probes nothing. */
  public synchronized Entry probed(String name) {
    return entries.get(name);
  }

  /**
   * The first available backend in the family's auto order that implements it; one that runs
   * degraded here (it carries a {@link KernelFamilies#warning}, e.g. netlib on its Java fallback)
   * moves behind every other backend but the scalar reference.
   */
  Entry best(KernelFamily family) {
    Entry degraded = null;
    for (String name : autoOrder(family)) {
      Entry e = entry(name);
      if (!e.available() || e.families().get(family) == null) {
        continue;
      }
      if (e.families().warning() != null) {
        degraded = degraded == null ? e : degraded;
      } else {
        return degraded != null && name.equals("scalar") ? degraded : e;
      }
    }
    if (degraded != null) {
      return degraded;
    }
    throw new IllegalStateException(
        "no available backend implements "
            + family.label()
            + "; the scalar backend in engine-api always should");
  }
}
