package org.largecat.kernel.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class SystemLibrariesTest {
  @Test
  @EnabledOnOs(OS.LINUX)
  void reportsExactlyTheLibrariesTheLoaderCannotOpen() {
    assertEquals(
        List.of("liblargecat-absent.so.1"),
        SystemLibraries.missing(List.of("libc.so.6", "liblargecat-absent.so.1", "libm.so.6")));
  }
}
