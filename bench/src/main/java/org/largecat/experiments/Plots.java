package org.largecat.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Line charts of experiment traces, written as PNG and SVG with XChart (headless). */
public final class Plots {
  private Plots() {}

  /**
   * Draws one line per series (x values, y values) and writes {@code base}.png and {@code base}.svg;
   * returns their paths.
   */
  public static List<Path> lines(String title, String xLabel, String yLabel, Map<String, double[][]> series, Path base)
      throws IOException {
    return lines(title, xLabel, yLabel, series, base, Axes.LINEAR);
  }

  /**
   * How the axes are drawn: logarithmic or not, and the top of the y axis (NaN: fitted to the data),
   * so that one run that blew up does not flatten the others.
   */
  public record Axes(boolean logX, boolean logY, double yMax) {
    public static final Axes LINEAR = new Axes(false, false, Double.NaN);
  }

  /**
   * The same with {@code axes}; the points that are not finite (an overflowed run), or not positive
   * on a logarithmic axis, are left out.
   */
  public static List<Path> lines(String title, String xLabel, String yLabel, Map<String, double[][]> series, Path base,
      Axes axes) throws IOException {
    boolean logX = axes.logX();
    boolean logY = axes.logY();
    System.setProperty("java.awt.headless", "true");
    Files.createDirectories(base.toAbsolutePath().getParent());
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setXAxisLogarithmic(logX);
    chart.getStyler().setYAxisLogarithmic(logY);
    if (!Double.isNaN(axes.yMax())) {
      chart.getStyler().setYAxisMax(axes.yMax());
    }
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      double[][] xy = plottable(e.getValue(), logX, logY);
      if (xy[0].length > 0) {
        chart.addSeries(e.getKey(), xy[0], xy[1]).setMarker(SeriesMarkers.NONE);
      }
    }
    BitmapEncoder.saveBitmap(chart, base.toString(), BitmapEncoder.BitmapFormat.PNG);
    VectorGraphicsEncoder.saveVectorGraphic(chart, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    return List.of(Path.of(base + ".png"), Path.of(base + ".svg"));
  }

  private static double[][] plottable(double[][] xy, boolean logX, boolean logY) {
    int n = 0;
    double[][] kept = new double[2][xy[0].length];
    for (int i = 0; i < xy[0].length; i++) {
      if (fits(xy[0][i], logX) && fits(xy[1][i], logY)) {
        kept[0][n] = xy[0][i];
        kept[1][n++] = xy[1][i];
      }
    }
    return new double[][] {java.util.Arrays.copyOf(kept[0], n), java.util.Arrays.copyOf(kept[1], n)};
  }

  private static boolean fits(double v, boolean log) {
    return Double.isFinite(v) && (!log || v > 0);
  }
}
