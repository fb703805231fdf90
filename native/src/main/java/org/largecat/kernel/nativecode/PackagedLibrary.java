package org.largecat.kernel.nativecode;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Function;
import org.largecat.kernel.BackendUnavailableException;

/**
 * Finds liblargecat among the resources of this module, where build-native.sh put it ({@code
 * /native/linux-x86_64/liblargecat.so}), and copies it to a file the dynamic linker can open; or
 * says why it cannot run here: wrong OS, native access not enabled, or no library for this platform
 * (with the reason build-native.sh left in {@code NOT-BUILT} when it could not build one).
 */
final class PackagedLibrary {
  static final String FILE_NAME = "liblargecat.so";
  static final String NOT_BUILT = "NOT-BUILT";
  private static final String REBUILD =
      "install gcc (e.g. apt-get install gcc) and rebuild largecat on this machine"
          + " (./mvnw package)";

  private PackagedLibrary() {}

  /** The library's resource path for a platform. */
  static String resource(String platform, String file) {
    return "/native/" + platform + "/" + file;
  }

  /**
   * Checks the host and extracts the library found by {@code resources} (resource path to URL, or
   * null) into a temporary file named with this process ({@link StaleCopies}), which the caller
   * deletes once it has loaded it; first removes the copies killed processes left.
   *
   * @throws BackendUnavailableException if the host cannot run it or there is none for its platform
   */
  static Path extract(Host host, Function<String, URL> resources) {
    if (!host.linux()) {
      throw new BackendUnavailableException(
          "the native backend runs on Linux only, and this is " + host.osName(),
          "use the simd or scalar backend");
    }
    if (!host.nativeAccessEnabled()) {
      throw new BackendUnavailableException(
          "native access is not enabled for the largecat native module",
          "pass --enable-native-access=ALL-UNNAMED to java (./largecat and the Maven build do; java -jar reads it"
              + " from the manifest)");
    }
    String platform = host.platform();
    URL library = resources.apply(resource(platform, FILE_NAME));
    if (library == null) {
      URL marker = resources.apply(resource(platform, NOT_BUILT));
      if (marker != null) {
        throw new BackendUnavailableException(
            "liblargecat was not built for " + platform + ": " + read(marker), REBUILD);
      }
      throw new BackendUnavailableException(
          "this build of largecat has no liblargecat for "
              + platform
              + " (it was built on another platform)",
          REBUILD);
    }
    try (InputStream in = library.openStream()) {
      Path directory = Path.of(System.getProperty("java.io.tmpdir"));
      StaleCopies.remove(directory);
      Path file = Files.createTempFile(directory, StaleCopies.prefix(), ".so");
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new BackendUnavailableException(
          "could not copy liblargecat to a temporary file: " + e,
          "make the directory in java.io.tmpdir writable, or point -Djava.io.tmpdir at one that is",
          e);
    }
  }

  private static String read(URL marker) {
    try (InputStream in = marker.openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "(its reason could not be read: " + e + ")";
    }
  }
}
