package org.largecat.kernel;

/** A backend cannot run on this machine or JVM: why, and what would fix it. */
public final class BackendUnavailableException extends UnsupportedOperationException {
  private static final long serialVersionUID = 1L;
  private final String fix;

  public BackendUnavailableException(String reason, String fix) {
    super(reason);
    this.fix = fix;
  }

  public BackendUnavailableException(String reason, String fix, Throwable cause) {
    super(reason, cause);
    this.fix = fix;
  }

  /** What the user can do about it, e.g. "pass --add-modules jdk.incubator.vector". */
  public String fix() {
    return fix;
  }
}
