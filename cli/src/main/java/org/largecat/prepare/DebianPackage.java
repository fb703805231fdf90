package org.largecat.prepare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Debian package a prepared dataset comes from: the install line to name when it is missing,
 * and its installed version for the record. Datasets are never bundled in the repository.
 */
public record DebianPackage(String name) {

  /** The command that installs it. */
  public String installLine() {
    return "apt-get install -y " + name;
  }

  /** The error for a source that is not here: what is missing and the line that installs it. */
  public IOException missing(String what) {
    return new IOException(
        what + "; it comes from Debian's package " + name + ": " + installLine());
  }

  /** The installed version as dpkg records it, or a note saying dpkg does not know it. */
  public String version() {
    try {
      Process dpkg =
          new ProcessBuilder("dpkg-query", "-W", "-f=${Version}", name)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      String output =
          new String(dpkg.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return dpkg.waitFor() == 0 && !output.isEmpty()
          ? output
          : "unknown (dpkg does not list " + name + ")";
    } catch (IOException e) {
      return "unknown (no dpkg-query: " + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown (interrupted)";
    }
  }

  /** The first executable named {@code command} on PATH, or null. */
  public static Path onPath(String command) {
    for (String dir :
        System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
