package org.largecat.layout;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layout of README.md (its Layout table) and of each package's package-info, checked on
 * the compiled classes of every module: no package imports a package that imports it; engine-api is
 * the SPI and nothing else; algorithms see only the SPI; backends never see an algorithm; bench
 * never sees the command; only the Spark code sees Spark.
 */
class LayoutTest {
  /** The packages of engine-api. */
  private static final String[] ENGINE_API = {
    "org.largecat.kernel",
    "org.largecat.kernel.scalar",
    "org.largecat.special",
    "org.largecat.files"
  };

  /** The packages of the algorithms module. */
  private static final String[] ALGORITHMS = {
    "org.largecat",
    "org.largecat.data",
    "org.largecat.model",
    "org.largecat.train..",
    "org.largecat.eval",
    "org.largecat.fit",
    "org.largecat.cb",
    "org.largecat.synth"
  };

  /** The packages of the backend modules. */
  private static final String[] BACKENDS = {
    "org.largecat.kernel.simd", "org.largecat.kernel.blas", "org.largecat.kernel.nativecode"
  };

  private static JavaClasses largecat;

  @BeforeAll
  static void importClasses() {
    // Main code only: test classes come from target/test-classes and from engine-api's test-jar.
    largecat =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("org.largecat");
  }

  @Test
  void noPackageCycles() {
    slices().matching("org.largecat.(**)").should().beFreeOfCycles().check(largecat);
  }

  @Test
  void engineApiDependsOnTheJdkOnly() {
    classes()
        .that()
        .resideInAnyPackage(ENGINE_API)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(concat(ENGINE_API, "java.."))
        .check(largecat);
  }

  @Test
  void algorithmsSeeOnlyTheKernelSpi() {
    classes()
        .that()
        .resideInAnyPackage(ALGORITHMS)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            concat(
                ALGORITHMS,
                "org.largecat.kernel",
                "org.largecat.special",
                "org.largecat.files",
                "java.."))
        .check(largecat);
  }

  @Test
  void backendsNeverSeeAnAlgorithmOrTheCommand() {
    noClasses()
        .that()
        .resideInAnyPackage(BACKENDS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            concat(
                ALGORITHMS,
                "org.largecat.bench..",
                "org.largecat.cli",
                "org.largecat.experiments",
                "org.largecat.prepare"))
        .check(largecat);
  }

  @Test
  void benchIsJmhOverTheAlgorithmsNotTheCommand() {
    noClasses()
        .that()
        .resideInAnyPackage("org.largecat.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.largecat.cli", "org.largecat.experiments", "org.largecat.prepare")
        .check(largecat);
  }

  /**
   * Spark is on the class path only for {@code largecat spark}: every other class, the command
   * classes that list the Spark commands included, must load without it. bench's Spark timings are
   * mains of their own, run with Spark's jars by bench/*.sh, and no command loads them.
   */
  @Test
  void onlyTheSparkModuleAndTheSparkCommandsSeeSpark() {
    noClasses()
        .that()
        .resideOutsideOfPackages("org.largecat.spark..", "org.largecat.cli.spark")
        .and()
        .haveSimpleNameNotEndingWith("SparkTiming")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.spark..", "scala..")
        .check(largecat);
  }

  private static String[] concat(String[] packages, String... more) {
    String[] all = java.util.Arrays.copyOf(packages, packages.length + more.length);
    System.arraycopy(more, 0, all, packages.length, more.length);
    return all;
  }
}
