package org.largecat.peers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.largecat.data.Dataset;
import org.largecat.fit.Classifier;
import org.largecat.fit.Fit;
import org.largecat.fit.FitListener;
import org.largecat.fit.Fitter;
import org.largecat.kernel.Kernels;
import org.largecat.train.Method;
import org.tribuo.Example;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.sgd.linear.LinearSGDModel;
import smile.classification.LogisticRegression;

/**
 * largecat against Smile and Tribuo on the same synthetic softmax data, in one run: the parent
 * process starts one child JVM per piece of work with its own JVM flags (plus {@code
 * -Dlargecat.backend=...} for largecat's predict children, the backend being a per-JVM choice),
 * collects their {@code RESULT} lines and prints the tables. A fit child fits all three libraries
 * {@code --fit-reps} times, interleaved, times the peers' predict and saves largecat's model; a
 * predict child loads that model and times largecat's predict on one backend.
 *
 * <p>usage: {@code PeerBench [--classes 1000,100] [--backends simd,native,blas] [--fit-reps 3]
 * [--predict-reps 5] [--smile-lambda 1.0] [--seed 7]}; {@code PeerBench smile-sweep K
 * LAMBDA,...} fits Smile at each λ and prints the test log-likelihood (how λ was picked); {@code
 * PeerBench fit-race K} follows Smile's fit against largecat's defaults ({@link FitRace}).
 */
public final class PeerBench {
  static final int COLUMNS = 100;
  static final int ROWS = 50_000;
  static final int TEST_ROWS = 10_000;

  private PeerBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = options(args);
    switch (o.getOrDefault("mode", "all")) {
      case "all" -> orchestrate(o);
      case "fit" -> fitChild(o);
      case "predict" -> predictChild(o);
      case "smile-sweep" -> smileSweep(o);
      case "largecat-fit" -> largecatFit(o);
      case "fit-race" -> FitRace.run(o);
      default -> throw new IllegalArgumentException("unknown mode " + o.get("mode"));
    }
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("classes", "1000,100");
    o.put("backends", "simd,native,blas");
    o.put("fit-reps", "3");
    o.put("predict-reps", "5");
    o.put("smile-lambda", "1.0");
    o.put("seed", "7");
    o.put("smile-max-iter", "500");
    o.put("largecat-max-seconds", "0");
    o.put("ladder", "true");
    int i = 0;
    if (args.length > 0 && !args[0].startsWith("--")) {
      o.put("mode", args[i++]);
      if (o.get("mode").equals("largecat-fit") || o.get("mode").equals("fit-race")) {
        o.put("classes", args[i++]);
      }
      if (o.get("mode").equals("smile-sweep")) {
        o.put("classes", args[i++]);
        o.put("lambdas", args[i++]);
      }
    }
    for (; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value at " + args[i]);
      }
      o.put(args[i].substring(2), args[i + 1]);
    }
    return o;
  }

  // ------------------------------------------------------------------ the parent

  private static void orchestrate(Map<String, String> o) throws Exception {
    String loadBefore = load();
    long start = System.nanoTime();
    List<String[]> results = new ArrayList<>();
    Path dir = Files.createTempDirectory("largecat-peers");
    for (String k : o.get("classes").split(",")) {
      Path model = dir.resolve("largecat-" + k + ".bin");
      results.addAll(
          child(
              List.of(),
              "fit",
              "--classes",
              k,
              "--fit-reps",
              o.get("fit-reps"),
              "--predict-reps",
              o.get("predict-reps"),
              "--smile-lambda",
              o.get("smile-lambda"),
              "--smile-max-iter",
              o.get("smile-max-iter"),
              "--largecat-max-seconds",
              o.get("largecat-max-seconds"),
              "--ladder",
              o.get("ladder"),
              "--seed",
              o.get("seed"),
              "--model",
              model.toString()));
      for (String backend : o.get("backends").split(",")) {
        results.addAll(
            child(
                List.of("-Dlargecat.backend=" + backend),
                "predict",
                "--classes",
                k,
                "--predict-reps",
                o.get("predict-reps"),
                "--seed",
                o.get("seed"),
                "--model",
                model.toString()));
      }
    }
    String loadAfter = load();
    System.out.print(table(o, results, loadBefore, loadAfter, (System.nanoTime() - start) * 1e-9));
  }

  /** Runs a child JVM with this JVM's flags and returns its RESULT lines, split at tabs. */
  private static List<String[]> child(List<String> extraFlags, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.addAll(extraFlags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(PeerBench.class.getName());
    command.addAll(Arrays.asList(args));
    System.err.println("[peers] " + String.join(" ", args) + " " + extraFlags);
    Process p =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String[]> out = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        System.err.println("  " + line);
        if (line.startsWith("RESULT\t")) {
          out.add(line.substring(7).split("\t"));
        }
      }
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException("child " + Arrays.toString(args) + " exited " + p.exitValue());
    }
    return out;
  }

  // ------------------------------------------------------------------ fit child

  private static void fitChild(Map<String, String> o) throws IOException {
    int k = Integer.parseInt(o.get("classes"));
    int reps = Integer.parseInt(o.get("fit-reps"));
    int predictReps = Integer.parseInt(o.get("predict-reps"));
    double lambda = Double.parseDouble(o.get("smile-lambda"));
    int smileMaxIter = Integer.parseInt(o.get("smile-max-iter"));
    double largecatMaxSeconds = Double.parseDouble(o.get("largecat-max-seconds"));
    PeerData d = PeerData.generate(Long.parseLong(o.get("seed")), k, COLUMNS, ROWS, TEST_ROWS);
    String key = Integer.toString(k);
    result(key, "truth", "-", "test_ll", d.truthLogLikelihood);
    Dataset train = Libraries.largecatData(d.x, d.y, k);
    Dataset test = Libraries.largecatData(d.xTest, d.yTest, k);
    double[][] sx = PeerData.toDouble(d.x);
    double[][] sxTest = PeerData.toDouble(d.xTest);
    String[] names = Libraries.featureNames(COLUMNS);
    MutableDataset<Label> tTrain = Libraries.tribuoDataset(Libraries.tribuoExamples(d.x, d.y, names));
    List<Example<Label>> tTest = Libraries.tribuoExamples(d.xTest, d.yTest, names);

    String backends = Kernels.get().describeChoice().replace(", ", " ");
    double[][] lc = new double[2][reps];
    double[][] sm = new double[2][reps];
    double[][] tr = new double[2][reps];
    Fit fit = null;
    LogisticRegression.Multinomial smile = null;
    LinearSGDModel tribuo = null;
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      Fitter fitter = Fitter.softmax().seed(1);
      fit = (largecatMaxSeconds > 0 ? fitter.maxSeconds(largecatMaxSeconds) : fitter).fit(train);
      lc[0][r] = (System.nanoTime() - t0) * 1e-9;
      lc[1][r] = Libraries.largecatLogLikelihood(fit.classifier(), test);
      System.out.printf(
          Locale.ROOT,
          "largecat rep %d: %s stopped %s after %d iterations, %.2f s, test ll %.5f%n",
          r,
          fit.method().label(),
          fit.stoppedBecause(),
          fit.iterations(),
          lc[0][r],
          lc[1][r]);
      t0 = System.nanoTime();
      smile = Libraries.smileFit(sx, d.y, lambda, 1e-5, smileMaxIter);
      sm[0][r] = (System.nanoTime() - t0) * 1e-9;
      sm[1][r] = Libraries.smileLogLikelihood(smile, sxTest, d.yTest);
      System.out.printf(
          Locale.ROOT, "smile rep %d: %.2f s, test ll %.5f%n", r, sm[0][r], sm[1][r]);
      t0 = System.nanoTime();
      tribuo = Libraries.tribuoFit(tTrain);
      tr[0][r] = (System.nanoTime() - t0) * 1e-9;
      tr[1][r] = Libraries.tribuoLogLikelihood(tribuo, tTest, d.yTest);
      System.out.printf(
          Locale.ROOT, "tribuo rep %d: %.2f s, test ll %.5f%n", r, tr[0][r], tr[1][r]);
    }
    String method =
        fit.method().label()
            + "("
            + fit.stoppedBecause()
            + (largecatMaxSeconds > 0 ? ", maxSeconds " + largecatMaxSeconds : "")
            + ")";
    result(key, "largecat", backends, "fit_s", lc[0]);
    result(key, "largecat", backends, "test_ll", lc[1]);
    result(key, "largecat", backends, "method", method);
    result(key, "smile", "lambda=" + lambda + " maxIter=" + smileMaxIter, "fit_s", sm[0]);
    result(key, "smile", "lambda=" + lambda + " maxIter=" + smileMaxIter, "test_ll", sm[1]);
    result(key, "tribuo", "LinearSGDTrainer", "fit_s", tr[0]);
    result(key, "tribuo", "LinearSGDTrainer", "test_ll", tr[1]);
    fit.classifier().save(Path.of(o.get("model")));

    LogisticRegression.Multinomial s = smile;
    result(
        key,
        "smile",
        "-",
        "batch_per_s",
        Measure.batchThroughput(
            () -> Measure.sink += s.predict(sxTest)[0], TEST_ROWS, predictReps, 2));
    result(
        key, "smile", "-", "p50_us", Measure.latencyP50(i -> s.predict(sxTest[i]), TEST_ROWS, predictReps, 3));
    LinearSGDModel t = tribuo;
    result(
        key,
        "tribuo",
        "-",
        "batch_per_s",
        Measure.batchThroughput(
            () -> Measure.sink += Libraries.tribuoClass(t.predict(tTest).get(0)),
            TEST_ROWS,
            predictReps,
            2));
    result(
        key,
        "tribuo",
        "-",
        "p50_us",
        Measure.latencyP50(
            i -> Libraries.tribuoClass(t.predict(tTest.get(i))), TEST_ROWS, predictReps, 3));

    if (Boolean.parseBoolean(o.get("ladder")))
    toSmileLogLikelihood(key, train, test, Measure.median(sm[1]), Measure.median(sm[0]), Measure.median(lc[0]), Measure.median(lc[1]));
  }

  /**
   * The time largecat needs to reach a test log-likelihood at least Smile's: its defaults' time
   * when they reach it within a fifth of Smile's time; otherwise the shortest of a ladder of
   * {@code maxSeconds} budgets, on the default choice and on {@code exact-softmax-sgd}, that
   * reaches it; and, whatever the defaults did, that of {@code exact-softmax}, the exact fit.
   */
  private static void toSmileLogLikelihood(
      String key, Dataset train, Dataset test, double smileLl, double smileS, double defaultS, double defaultLl) {
    List<Supplier<Fitter>> ladders =
        List.of(
            () -> Fitter.softmax().seed(1),
            () -> Fitter.softmax().seed(1).method(Method.EXACT_SOFTMAX_SGD),
            () -> Fitter.softmax().seed(1).method(Method.EXACT_SOFTMAX));
    String[] names = {"defaults+maxSeconds", "exact-softmax-sgd+maxSeconds", "exact-softmax+maxSeconds"};
    // The exact fit is always laddered: it has a criterion of its own.
    boolean defaultsReached = defaultLl >= smileLl && defaultS * 5 <= smileS;
    for (int l = defaultsReached ? 2 : 0; l < ladders.size(); l++) {
      double reached = Double.NaN;
      for (double budget = Math.max(0.25, smileS / 40); budget <= Math.max(defaultS, smileS); budget *= 2) {
        long t0 = System.nanoTime();
        Fit fit = ladders.get(l).get().maxSeconds(budget).fit(train);
        double s = (System.nanoTime() - t0) * 1e-9;
        double ll = Libraries.largecatLogLikelihood(fit.classifier(), test);
        System.out.printf(
            Locale.ROOT,
            "ladder %s budget %.2f s: %s %s, %.2f s, test ll %.5f (smile %.5f)%n",
            names[l],
            budget,
            fit.method().label(),
            fit.stoppedBecause(),
            s,
            ll,
            smileLl);
        if (ll >= smileLl) {
          reached = s;
          break;
        }
      }
      result(key, "largecat", names[l], "to_smile_ll_s", reached);
    }
    if (defaultLl >= smileLl) {
      result(key, "largecat", "defaults", "to_smile_ll_s", defaultS);
    }
  }

  // ------------------------------------------------------------------ predict child

  private static void predictChild(Map<String, String> o) throws IOException {
    int k = Integer.parseInt(o.get("classes"));
    int reps = Integer.parseInt(o.get("predict-reps"));
    PeerData d = PeerData.generate(Long.parseLong(o.get("seed")), k, COLUMNS, 0, TEST_ROWS);
    Classifier model = Classifier.load(Path.of(o.get("model")));
    String backend = System.getProperty("largecat.backend", "auto");
    String resolved = Kernels.get().describeChoice().replace(", ", " ");
    System.out.println("[largecat] backend=" + backend + ": " + resolved);
    float[] block = PeerData.rowMajor(d.xTest);
    int[] out = new int[TEST_ROWS];
    float[][] rows = d.xTest;
    String key = Integer.toString(k);
    result(
        key,
        "largecat",
        backend + " [" + resolved + "]",
        "batch_per_s",
        Measure.batchThroughput(() -> model.predict(block, TEST_ROWS, out), TEST_ROWS, reps, 2));
    result(
        key,
        "largecat",
        backend + " [" + resolved + "]",
        "p50_us",
        Measure.latencyP50(i -> model.predict(rows[i]), TEST_ROWS, reps, 3));
  }

  // ------------------------------------------------------------------ one largecat fit, to profile

  /**
   * {@code largecat-fit K [--largecat-max-seconds S]}: largecat's default fit alone, its notes on
   * stderr, e.g. under JFR.
   */
  private static void largecatFit(Map<String, String> o) {
    int k = Integer.parseInt(o.get("classes"));
    double maxSeconds = Double.parseDouble(o.get("largecat-max-seconds"));
    PeerData d = PeerData.generate(Long.parseLong(o.get("seed")), k, COLUMNS, ROWS, TEST_ROWS);
    Fitter fitter =
        Fitter.softmax()
            .seed(1)
            .listener(
                new FitListener() {
                  @Override
                  public void note(String message) {
                    System.err.println("largecat: " + message);
                  }
                });
    long t0 = System.nanoTime();
    Fit fit = (maxSeconds > 0 ? fitter.maxSeconds(maxSeconds) : fitter).fit(Dataset.dense(d.x, d.y, k));
    System.out.printf(
        Locale.ROOT,
        "largecat %s %s, %d iterations, %.2f s, test ll %.5f%n",
        fit.method().label(),
        fit.stoppedBecause(),
        fit.iterations(),
        (System.nanoTime() - t0) * 1e-9,
        Libraries.largecatLogLikelihood(fit.classifier(), Dataset.dense(d.xTest, d.yTest, k)));
  }

  // ------------------------------------------------------------------ how λ was picked

  private static void smileSweep(Map<String, String> o) {
    int k = Integer.parseInt(o.get("classes"));
    PeerData d = PeerData.generate(Long.parseLong(o.get("seed")), k, COLUMNS, ROWS, TEST_ROWS);
    double[][] sx = PeerData.toDouble(d.x);
    double[][] sxTest = PeerData.toDouble(d.xTest);
    System.out.printf(Locale.ROOT, "K = %d, truth test ll %.5f%n", k, d.truthLogLikelihood);
    for (String l : o.get("lambdas").split(",")) {
      long t0 = System.nanoTime();
      LogisticRegression.Multinomial m =
          Libraries.smileFit(sx, d.y, Double.parseDouble(l), 1e-5, 500);
      double s = (System.nanoTime() - t0) * 1e-9;
      System.out.printf(
          Locale.ROOT,
          "lambda %s: %.2f s, test ll %.5f%n",
          l,
          s,
          Libraries.smileLogLikelihood(m, sxTest, d.yTest));
    }
  }

  // ------------------------------------------------------------------ output

  private static void result(String k, String library, String detail, String metric, double... reps) {
    StringBuilder line = new StringBuilder("RESULT\t" + k + "\t" + library + "\t" + detail + "\t" + metric);
    line.append('\t').append(reps.length == 0 ? Double.NaN : Measure.median(reps));
    for (double r : reps) {
      line.append('\t').append(r);
    }
    System.out.println(line);
  }

  private static void result(String k, String library, String detail, String metric, String value) {
    System.out.println("RESULT\t" + k + "\t" + library + "\t" + detail + "\t" + metric + "\t" + value);
  }

  private static String load() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).trim();
  }

  private static String cpu() throws IOException {
    String name = "?", family = "?", model = "?";
    for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
      String[] kv = line.split("\\s*:\\s*", 2);
      if (kv.length < 2) {
        continue;
      }
      switch (kv[0].trim()) {
        case "model name" -> name = name.equals("?") ? kv[1] : name;
        case "cpu family" -> family = family.equals("?") ? kv[1] : family;
        case "model" -> model = model.equals("?") ? kv[1] : model;
        default -> {}
      }
    }
    return name + ", family " + family + ", model " + model + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
  }

  private static String table(
      Map<String, String> o, List<String[]> results, String loadBefore, String loadAfter, double seconds)
      throws IOException {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "date %s; CPU %s; load before %s, after %s; %.0f s in all%n",
            ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME).substring(0, 19),
            cpu(),
            loadBefore,
            loadAfter,
            seconds));
    s.append("JVM ")
        .append(System.getProperty("java.vm.version"))
        .append(", flags ")
        .append(String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()))
        .append(", OPENBLAS_CORETYPE=")
        .append(System.getenv().getOrDefault("OPENBLAS_CORETYPE", "(unset)"))
        .append('\n');
    s.append(
        String.format(
            Locale.ROOT,
            "D = %d, %d training rows, %d test rows, seed %s; medians of %s fits and %s predict repetitions%n",
            COLUMNS,
            ROWS,
            TEST_ROWS,
            o.get("seed"),
            o.get("fit-reps"),
            o.get("predict-reps")));
    for (String k : o.get("classes").split(",")) {
      s.append(String.format(Locale.ROOT, "%n### K = %s%n%n", k));
      s.append("| fit | detail | seconds | test mean log-lik | Smile's seconds / this |\n|---|---|---|---|---|\n");
      double smileFit = value(results, k, "smile", null, "fit_s");
      for (String lib : List.of("largecat", "smile", "tribuo")) {
        String[] f = find(results, k, lib, null, "fit_s");
        if (f == null) {
          continue;
        }
        String detail = f[2];
        if (lib.equals("largecat")) {
          String[] m = find(results, k, lib, null, "method");
          detail = (m == null ? "" : m[4]) + " on " + f[2];
        }
        double secs = Double.parseDouble(f[4]);
        s.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.2f (%s) | %.5f (%s) | %.2f |%n",
                lib,
                detail,
                secs,
                reps(f),
                value(results, k, lib, null, "test_ll"),
                reps(find(results, k, lib, null, "test_ll")),
                smileFit / secs));
      }
      s.append(String.format(Locale.ROOT, "| truth | generating model | | %.5f | |%n", value(results, k, "truth", null, "test_ll")));
      for (String[] r : results) {
        if (r[0].equals(k) && r[3].equals("to_smile_ll_s")) {
          double v = Double.parseDouble(r[4]);
          s.append(
              String.format(
                  Locale.ROOT,
                  "%nfit to Smile's log-likelihood, largecat %s: %s s, Smile %.2f s, ratio %s%n",
                  r[2],
                  Double.isNaN(v) ? "not reached" : String.format(Locale.ROOT, "%.2f", v),
                  smileFit,
                  Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f×", smileFit / v)));
        }
      }
      s.append("\n| predict, 1 thread | backend | batch examples/s | × Smile | single p50 µs | Smile's / this |\n|---|---|---|---|---|---|\n");
      double smileBatch = value(results, k, "smile", "-", "batch_per_s");
      double smileP50 = value(results, k, "smile", "-", "p50_us");
      for (String[] r : results) {
        if (!r[0].equals(k) || !r[3].equals("batch_per_s")) {
          continue;
        }
        String[] p50 = find(results, k, r[1], r[2], "p50_us");
        double batch = Double.parseDouble(r[4]);
        double lat = Double.parseDouble(p50[4]);
        s.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.0f (%s) | %.2f | %.2f (%s) | %.2f |%n",
                r[1],
                r[2],
                batch,
                reps(r),
                batch / smileBatch,
                lat,
                reps(p50),
                smileP50 / lat));
      }
    }
    return s.toString();
  }

  private static String[] find(List<String[]> results, String k, String lib, String detail, String metric) {
    for (String[] r : results) {
      if (r[0].equals(k) && r[1].equals(lib) && (detail == null || r[2].equals(detail)) && r[3].equals(metric)) {
        return r;
      }
    }
    return null;
  }

  private static double value(List<String[]> results, String k, String lib, String detail, String metric) {
    String[] r = find(results, k, lib, detail, metric);
    return r == null ? Double.NaN : Double.parseDouble(r[4]);
  }

  private static String reps(String[] r) {
    if (r == null) {
      return "";
    }
    StringBuilder s = new StringBuilder();
    for (int i = 5; i < r.length; i++) {
      double v = Double.parseDouble(r[i]);
      s.append(i == 5 ? "" : " ")
          .append(
              Math.abs(v) >= 100
                  ? String.format(Locale.ROOT, "%.0f", v)
                  : String.format(Locale.ROOT, "%.3g", v));
    }
    return s.toString();
  }
}
