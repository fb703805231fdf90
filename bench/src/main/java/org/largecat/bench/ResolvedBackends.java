package org.largecat.bench;

import java.util.Locale;
import org.largecat.kernel.BackendCatalog;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;

/**
 * Selects the backend a benchmark fork runs on, and remembers what it resolved to so that {@link
 * BackendRecorder} can store it with the result. Every benchmark's {@code backend} parameter goes
 * through {@link #select}: JMH runs each parameter value in a fork of its own, and this makes the
 * fork's {@link Kernels#get()} (which library code such as the synth EM uses) the same choice.
 * Anything that would measure another backend than the one asked for throws: a backend that cannot
 * run here, a kernel benchmark asked for a backend that does not implement its family (it would
 * inherit auto's choice), a conflicting {@code -Dlargecat.backend} or {@code LARGECAT_BACKEND}, and
 * a fork whose kernels were already chosen differently (e.g. {@code -f 0}).
 */
public final class ResolvedBackends {
  private static volatile Kernels selected;

  private ResolvedBackends() {}

  /**
   * The kernels of {@code backend} for this fork, printed and remembered.
   *
   * @param measured the family whose kernels the benchmark times, which {@code backend} itself must
   *     implement; null for a macro benchmark (a whole trainer), which takes whatever the request
   *     resolves to in every family
   * @throws IllegalStateException if this fork would run anything other than what was asked for
   */
  public static Kernels select(String backend, KernelFamily measured) {
    String request = backend.trim().toLowerCase(Locale.ROOT);
    String inherited = Kernels.requestedBackend();
    if (!inherited.equals(Kernels.AUTO) && !inherited.equals(request)) {
      throw new IllegalStateException(
          "[largecat] the fork asks for backend '"
              + inherited
              + "' by -D"
              + Kernels.BACKEND_PROPERTY
              + " or "
              + Kernels.BACKEND_ENVIRONMENT
              + " but the benchmark's parameter says '"
              + request
              + "'; unset it and choose with -p backend="
              + inherited);
    }
    Kernels asked =
        Kernels.of(
            request); // throws, naming the reason and the fix, if the backend cannot run here
    if (measured != null
        && !request.equals(Kernels.AUTO)
        && !asked.backendOf(measured).equals(request)) {
      throw new IllegalStateException(
          "[largecat] backend '"
              + request
              + "' does not implement "
              + measured.label()
              + ", so this benchmark would measure "
              + asked.backendOf(measured)
              + "; backends that implement it: "
              + implementing(measured));
    }
    System.setProperty(Kernels.BACKEND_PROPERTY, request);
    Kernels kernels = Kernels.get();
    if (!kernels.describeChoice().equals(asked.describeChoice())) {
      throw new IllegalStateException(
          "[largecat] this JVM's kernels were already chosen ("
              + kernels.describeChoice()
              + ") before backend '"
              + request
              + "' ("
              + asked.describeChoice()
              + ") was asked for: run one backend per"
              + " fork (JMH's default; not -f 0)");
    }
    selected = kernels;
    StringBuilder line =
        new StringBuilder("\n[largecat] backend=")
            .append(request)
            .append(": ")
            .append(kernels.describeChoice());
    for (KernelFamily family : KernelFamily.values()) {
      String name = kernels.backendOf(family);
      String detail = Kernels.catalog().entry(name).detail();
      if (detail != null && line.indexOf("; " + name + " uses ") < 0) {
        line.append("; ").append(name).append(" uses ").append(detail);
      }
    }
    System.out.println(line);
    return kernels;
  }

  /** The kernels the last {@link #select} in this JVM resolved to, or null before any. */
  static Kernels selected() {
    return selected;
  }

  private static String implementing(KernelFamily family) {
    StringBuilder s = new StringBuilder();
    for (BackendCatalog.Entry e : Kernels.catalog().entries()) {
      if (e.available() && e.families().get(family) != null) {
        s.append(s.length() == 0 ? "" : ", ").append(e.name());
      }
    }
    return s.toString();
  }
}
