# The JVM options of every largecat run, in the array jvm_options: the Vector API's incubator
# module, native access for the BLAS and native backends, transparent huge pages (the launcher says
# why), one-line log records, and then LARGECAT_JAVA_OPTS. The AOT cache's name depends on them
# (bin/aot-cache.sh), so the launcher and its test take them from here.
largecat_jvm_options() {
  # shellcheck disable=SC2206
  jvm_options=(
    --add-modules jdk.incubator.vector
    --enable-native-access=ALL-UNNAMED
    -XX:+UseTransparentHugePages
    '-Djava.util.logging.SimpleFormatter.format=%4$s %3$s: %5$s%6$s%n'
    ${LARGECAT_JAVA_OPTS:-}
  )
}

# The JVM options of a Spark driver, in the array spark_options: the opens Spark's own launcher adds
# for Java 17 and newer. Their one source is the root pom's spark.javaOptions, which cli's build
# writes to the file $1 (cli/target/spark-jars/java-options).
largecat_spark_options() {
  read -ra spark_options <"$1"
}

# The same options read from the root pom $1 itself, for scripts that build only what they run
# (no cli/target/spark-jars).
largecat_spark_options_of_pom() {
  read -ra spark_options <<<"$(sed -n 's:.*<spark.javaOptions>\(.*\)</spark.javaOptions>.*:\1:p' "$1")"
}
