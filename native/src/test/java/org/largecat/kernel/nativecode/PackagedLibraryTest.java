package org.largecat.kernel.nativecode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.BackendUnavailableException;

/**
 * Each way the native library can be missing gives its own reason and fix, and a packaged library
 * is copied out intact. The resources come from stand-in trees under src/test/resources, so these
 * cases need neither another OS nor a machine without gcc.
 */
class PackagedLibraryTest {
  private static final Host LINUX = new Host("Linux", "amd64", true);

  private static Function<String, URL> tree(String root) {
    return path -> PackagedLibraryTest.class.getResource("/" + root + path);
  }

  @Test
  void notBuiltSaysWhyAndHowToFixIt() {
    BackendUnavailableException e =
        assertThrows(
            BackendUnavailableException.class,
            () -> PackagedLibrary.extract(LINUX, tree("not-built")));
    assertEquals(
        "liblargecat was not built for linux-x86_64: gcc was not found on PATH when the native module was built",
        e.getMessage());
    assertTrue(
        e.fix().contains("apt-get install gcc") && e.fix().contains("./mvnw package"), e.fix());
  }

  @Test
  void noLibraryForThisPlatform() {
    BackendUnavailableException e =
        assertThrows(
            BackendUnavailableException.class,
            () -> PackagedLibrary.extract(new Host("Linux", "riscv64", true), tree("packaged")));
    assertTrue(e.getMessage().contains("no liblargecat for linux-riscv64"), e.getMessage());
    assertTrue(e.fix().contains("rebuild"), e.fix());
  }

  @Test
  void otherOperatingSystems() {
    BackendUnavailableException e =
        assertThrows(
            BackendUnavailableException.class,
            () -> PackagedLibrary.extract(new Host("Mac OS X", "aarch64", true), tree("packaged")));
    assertEquals("the native backend runs on Linux only, and this is Mac OS X", e.getMessage());
    assertEquals("use the simd or scalar backend", e.fix());
  }

  @Test
  void nativeAccessNotEnabled() {
    BackendUnavailableException e =
        assertThrows(
            BackendUnavailableException.class,
            () -> PackagedLibrary.extract(new Host("Linux", "amd64", false), tree("packaged")));
    assertTrue(e.getMessage().contains("native access is not enabled"), e.getMessage());
    assertTrue(e.fix().contains("--enable-native-access=ALL-UNNAMED"), e.fix());
  }

  @Test
  void packagedLibraryIsCopiedIntact() throws IOException {
    Path file = PackagedLibrary.extract(LINUX, tree("packaged"));
    try (InputStream in =
        tree("packaged")
            .apply(PackagedLibrary.resource("linux-x86_64", PackagedLibrary.FILE_NAME))
            .openStream()) {
      assertArrayEquals(in.readAllBytes(), Files.readAllBytes(file));
    }
    assertTrue(file.getFileName().toString().endsWith(".so"), file.toString());
    // As NativeLibrary does once it has loaded it.
    Files.delete(file);
  }

  @Test
  void platformNamesMatchTheBuildScript() {
    assertEquals("linux-x86_64", new Host("Linux", "amd64", true).platform());
    assertEquals("linux-aarch64", new Host("Linux", "aarch64", true).platform());
    assertEquals("linux-ppc64le", new Host("Linux", "ppc64le", true).platform());
  }
}
