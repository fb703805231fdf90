package org.largecat.kernel;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The kernels this JVM runs: one implementation per family, chosen at startup from {@code
 * -Dlargecat.backend} (or the environment variable {@code LARGECAT_BACKEND}), default {@code auto}.
 * {@code auto} takes, per family, the first available backend in {@link BackendCatalog#autoOrder};
 * naming a backend takes its families and inherits the rest as {@code auto} would; naming a backend
 * that cannot run is an error. A family left to the scalar reference because a faster backend is
 * missing or cannot run is logged at WARNING with the fix; the choice itself at INFO. With {@code
 * -Dlargecat.check=true} every call is recomputed by the scalar reference and a disagreement beyond
 * the stated bounds throws {@link KernelDisagreementException}.
 */
public final class Kernels {
  public static final String BACKEND_PROPERTY = "largecat.backend";
  public static final String BACKEND_ENVIRONMENT = "LARGECAT_BACKEND";
  public static final String CHECK_PROPERTY = "largecat.check";
  public static final String AUTO = "auto";
  private static final System.Logger LOG = System.getLogger("org.largecat.kernel");

  private final String request;
  private final boolean checked;
  private final Map<KernelFamily, String> chosen;
  private final VectorOps vectorOps;
  private final SpecialFunctions specialFunctions;
  private final ImplicitUpdates implicitUpdates;
  private final MatrixOps matrixOps;

  private Kernels(
      String request, boolean checked, Map<KernelFamily, String> chosen, KernelFamilies families) {
    this.request = request;
    this.checked = checked;
    this.chosen = chosen;
    this.vectorOps = families.vectorOps();
    this.specialFunctions = families.specialFunctions();
    this.implicitUpdates = families.implicitUpdates();
    this.matrixOps = families.matrixOps();
  }

  /**
   * The kernels selected for this JVM by its properties and environment; selected and logged once.
   *
   * @throws IllegalArgumentException on every call, if the request names no backend or one that
   *     cannot run here
   */
  public static Kernels get() {
    if (Holder.REFUSED != null) {
      throw new IllegalArgumentException(Holder.REFUSED.getMessage(), Holder.REFUSED);
    }
    return Holder.SELECTED;
  }

  private static final class CatalogHolder {
    static final BackendCatalog CATALOG = BackendCatalog.discover();
  }

  /**
   * The selection, or why the request was refused: kept rather than thrown from the initializer, so
   * that every caller gets the reason as an IllegalArgumentException instead of an initializer
   * error once and a missing class after.
   */
  private static final class Holder {
    static final IllegalArgumentException REFUSED;
    static final Kernels SELECTED;

    static {
      Kernels selected = null;
      IllegalArgumentException refused = null;
      try {
        selected = fromEnvironment();
      } catch (IllegalArgumentException e) {
        refused = e;
      }
      SELECTED = selected;
      REFUSED = refused;
    }

    private static Kernels fromEnvironment() {
      BackendCatalog catalog = catalog();
      Kernels k = select(catalog, requestedBackend(), Boolean.getBoolean(CHECK_PROPERTY));
      for (String warning : warnings(catalog, k)) {
        LOG.log(System.Logger.Level.WARNING, warning);
      }
      LOG.log(System.Logger.Level.INFO, k.report(catalog));
      return k;
    }
  }

  /**
   * What a selection logs at WARNING, each line with its fix: first every backend that would run a
   * family the scalar reference runs instead (it is missing from the class path or cannot run
   * here), naming those families, unless scalar was requested; then every other backend that was
   * probed and cannot run here, and every one that runs degraded. A faster backend that is merely
   * not on the class path while another covers its families goes only into the INFO report.
   */
  static List<String> warnings(BackendCatalog catalog, Kernels k) {
    Map<String, List<String>> fallbacks = new LinkedHashMap<>();
    for (KernelFamily family : KernelFamily.values()) {
      if (!"scalar".equals(k.backendOf(family)) || "scalar".equals(k.request)) {
        continue;
      }
      for (String name : BackendCatalog.autoOrder(family)) {
        if (name.equals("scalar")) {
          break;
        }
        BackendCatalog.Entry e = catalog.probed(name);
        if (e != null && !e.available()) {
          fallbacks.computeIfAbsent(name, n -> new ArrayList<>()).add(family.label());
        }
      }
    }
    List<String> warnings = new ArrayList<>();
    for (String name : catalog.names()) {
      BackendCatalog.Entry e = catalog.probed(name);
      if (e == null) {
        continue;
      }
      if (fallbacks.containsKey(name)) {
        warnings.add(
            "largecat kernels: "
                + String.join(", ", fallbacks.get(name))
                + " fall back to the slow scalar reference: backend "
                + name
                + " is unavailable: "
                + e.reason()
                + "; to use it: "
                + e.fix());
      } else if (!e.available() && !BackendCatalog.NOT_ON_CLASS_PATH.equals(e.reason())) {
        warnings.add(
            "largecat backend "
                + name
                + " is unavailable: "
                + e.reason()
                + "; to use it: "
                + e.fix());
      } else if (e.available() && e.families().warning() != null) {
        warnings.add("largecat backend " + name + ": " + e.families().warning());
      }
    }
    return warnings;
  }

  /** The catalog of backends discovered on this JVM's class path, loaded once. */
  public static BackendCatalog catalog() {
    return CatalogHolder.CATALOG;
  }

  /** The backend requested by property or environment, {@code auto} if neither is set. */
  public static String requestedBackend() {
    String v = System.getProperty(BACKEND_PROPERTY);
    if (v == null || v.isBlank()) {
      v = System.getenv(BACKEND_ENVIRONMENT);
    }
    return v == null || v.isBlank() ? AUTO : v.trim().toLowerCase(Locale.ROOT);
  }

  /**
   * The kernels of the named backend (or auto), without check mode, from the discovered catalog.
   */
  public static Kernels of(String backend) {
    return select(catalog(), backend, false);
  }

  /**
   * Resolves a request against a catalog.
   *
   * @throws IllegalArgumentException if the request names no backend, or one that cannot run here
   */
  public static Kernels select(BackendCatalog catalog, String request, boolean check) {
    BackendCatalog.Entry forced = null;
    if (!AUTO.equals(request)) {
      forced = catalog.entry(request);
      if (forced == null) {
        throw new IllegalArgumentException(
            "unknown largecat backend '"
                + request
                + "'; known: auto, "
                + String.join(", ", catalog.names()));
      }
      if (!forced.available()) {
        throw new IllegalArgumentException(
            "largecat backend '"
                + request
                + "' was requested but is unavailable: "
                + forced.reason()
                + "; to use it: "
                + forced.fix());
      }
    }
    Map<KernelFamily, String> chosen = new EnumMap<>(KernelFamily.class);
    Object[] impl = new Object[KernelFamily.values().length];
    for (KernelFamily family : KernelFamily.values()) {
      BackendCatalog.Entry e =
          forced != null && forced.families().get(family) != null ? forced : catalog.best(family);
      chosen.put(family, e.name());
      impl[family.ordinal()] = e.families().get(family);
    }
    KernelFamilies families =
        new KernelFamilies(
            (VectorOps) impl[0],
            (SpecialFunctions) impl[1],
            (ImplicitUpdates) impl[2],
            (MatrixOps) impl[3]);
    if (check) {
      families = CheckedKernels.wrap(families, chosen, catalog.entry("scalar").families());
    }
    return new Kernels(request, check, Map.copyOf(chosen), families);
  }

  public VectorOps vectorOps() {
    return vectorOps;
  }

  public SpecialFunctions specialFunctions() {
    return specialFunctions;
  }

  public ImplicitUpdates implicitUpdates() {
    return implicitUpdates;
  }

  public MatrixOps matrixOps() {
    return matrixOps;
  }

  /** The name of the backend that runs a family. */
  public String backendOf(KernelFamily family) {
    return chosen.get(family);
  }

  /** Whether calls are recomputed by the reference and compared. */
  public boolean checked() {
    return checked;
  }

  /**
   * One line: the request, the backend of each family, what each available backend loaded (when it
   * says), why every other backend was skipped, and which were not probed because the families'
   * backends come before them in auto order. Probes nothing itself.
   */
  public String report(BackendCatalog catalog) {
    StringBuilder s =
        new StringBuilder("largecat kernels (backend=")
            .append(request)
            .append(checked ? ", checked against scalar" : "")
            .append("): ");
    s.append(describeChoice());
    for (String name : catalog.names()) {
      BackendCatalog.Entry e = catalog.probed(name);
      if (e == null) {
        s.append("; not probed ")
            .append(name)
            .append(": ")
            .append(
                !AUTO.equals(request)
                    ? "not requested, and a backend before it in auto order covers each family"
                        + " the requested one lacks"
                    : "a backend before it in auto order covers each family");
        continue;
      }
      if (!e.available()) {
        s.append("; skipped ")
            .append(e.name())
            .append(": ")
            .append(e.reason())
            .append(" (fix: ")
            .append(e.fix())
            .append(')');
        continue;
      }
      if (!chosen.containsValue(e.name())) {
        s.append("; not chosen ")
            .append(e.name())
            .append(": ")
            .append(
                !AUTO.equals(request)
                    ? "not requested"
                    : e.families().warning() != null
                        ? "it runs degraded here (see its warning)"
                        : "a faster backend covers its families");
      }
      if (e.detail() != null) {
        s.append("; ").append(e.name()).append(" uses ").append(e.detail());
      }
    }
    return s.toString();
  }

  /** The backend of each family, e.g. {@code vector-ops=simd, special-functions=simd, ...}. */
  public String describeChoice() {
    StringBuilder s = new StringBuilder();
    for (KernelFamily f : KernelFamily.values()) {
      if (s.length() > 0) {
        s.append(", ");
      }
      s.append(f.label()).append('=').append(chosen.get(f));
    }
    return s.toString();
  }
}
