package org.largecat.kernel.nativecode;

import java.util.Locale;

/**
 * The facts about this JVM and machine that decide whether liblargecat can run: operating system,
 * architecture, and whether the code of this module may call native code.
 */
record Host(String osName, String osArch, boolean nativeAccessEnabled) {

  static Host current() {
    return new Host(
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        Host.class.getModule().isNativeAccessEnabled());
  }

  boolean linux() {
    return osName.startsWith("Linux");
  }

  /**
   * The directory name build-native.sh uses for this machine, {@code uname -s}-{@code uname -m},
   * e.g. linux-x86_64.
   */
  String platform() {
    String arch =
        switch (osArch) {
          case "amd64", "x86_64" -> "x86_64";
          case "arm64", "aarch64" -> "aarch64";
          default -> osArch;
        };
    return osName.toLowerCase(Locale.ROOT).split(" ")[0] + "-" + arch;
  }
}
