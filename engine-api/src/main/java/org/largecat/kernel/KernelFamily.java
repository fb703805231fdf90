package org.largecat.kernel;

/** The kernel families a backend can implement; each is selected on its own. */
public enum KernelFamily {
  VECTOR_OPS("vector-ops"),
  SPECIAL_FUNCTIONS("special-functions"),
  IMPLICIT_UPDATES("implicit-updates"),
  MATRIX_OPS("matrix-ops");

  private final String label;

  KernelFamily(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
