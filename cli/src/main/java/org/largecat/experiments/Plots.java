package org.largecat.experiments;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.largecat.AtomicWrite;

/** Line and scatter charts of experiment results, written as PNG and SVG with XChart (headless). */
public final class Plots {
  private Plots() {}

  /**
   * How a chart's axes are drawn.
   *
   * @param logX a logarithmic x axis
   * @param logY a logarithmic y axis
   * @param yMax the top of the y axis, so that one run that blew up does not flatten the others;
   *     NaN fits the axis to the data
   * @param yPattern a {@link java.text.DecimalFormat} pattern for the y ticks, or null for XChart's
   *     choice (which prints every digit of values such as 12/22)
   */
  public record Axes(boolean logX, boolean logY, double yMax, String yPattern) {
    public static final Axes LINEAR = new Axes(false, false, Double.NaN, null);
  }

  /**
   * One chart: one line per series (x values, y values); the points that are not finite (an
   * overflowed run), or not positive on a logarithmic axis, are left out.
   *
   * @param markers a marker at every point, for series of a few points each
   */
  public record Panel(
      String title,
      String xLabel,
      String yLabel,
      Map<String, double[][]> series,
      Axes axes,
      boolean markers) {

    /** Plain lines on linear axes. */
    public Panel(String title, String xLabel, String yLabel, Map<String, double[][]> series) {
      this(title, xLabel, yLabel, series, Axes.LINEAR, false);
    }
  }

  /**
   * Draws one chart of plain lines on linear axes and writes {@code base}.png and {@code base}.svg;
   * returns their paths.
   */
  public static List<Path> lines(
      String title, String xLabel, String yLabel, Map<String, double[][]> series, Path base)
      throws IOException {
    return panels(List.of(new Panel(title, xLabel, yLabel, series)), 1, base);
  }

  /**
   * Draws the panels in a grid of {@code rows} rows, filled row by row, into {@code base}.png, and
   * each panel into an SVG of its own ({@code base}.svg for a single panel, else {@code
   * base}-1.svg, ...); returns their paths.
   */
  public static List<Path> panels(List<Panel> panels, int rows, Path base) throws IOException {
    int columns = (panels.size() + rows - 1) / rows;
    List<XYChart> charts = new ArrayList<>();
    for (Panel panel : panels) {
      XYChart chart =
          chart(
              panel.title(),
              panel.xLabel(),
              panel.yLabel(),
              panel.axes(),
              columns == 1 ? 800 : 560,
              rows == 1 ? 500 : 420);
      for (Map.Entry<String, double[][]> e : panel.series().entrySet()) {
        double[][] xy = plottable(e.getValue(), panel.axes());
        if (xy[0].length == 0) {
          continue; // XChart rejects an empty series; a series without points has nothing to draw
        }
        var line = chart.addSeries(e.getKey(), xy[0], xy[1]);
        if (!panel.markers()) {
          line.setMarker(SeriesMarkers.NONE);
        }
      }
      charts.add(chart);
    }
    if (charts.size() == 1) {
      return write(charts.get(0), base);
    }
    AtomicWrite.createDirectories(base.toAbsolutePath().getParent());
    Path png = Path.of(base + ".png");
    ByteArrayOutputStream grid = new ByteArrayOutputStream();
    BitmapEncoder.saveBitmap(charts, rows, columns, grid, BitmapEncoder.BitmapFormat.PNG);
    AtomicWrite.write(png, grid::writeTo);
    List<Path> files = new ArrayList<>(List.of(png));
    for (int i = 0; i < charts.size(); i++) {
      Path svg = Path.of(base + "-" + (i + 1) + ".svg");
      AtomicWrite.write(svg, svg(charts.get(i))::writeTo);
      files.add(svg);
    }
    return files;
  }

  /**
   * Draws one set of points per series (x values, y values), with the line y = x across their range
   * when {@code diagonal}, and writes {@code base}.png and {@code base}.svg; returns their paths.
   */
  public static List<Path> scatter(
      String title,
      String xLabel,
      String yLabel,
      Map<String, double[][]> series,
      boolean diagonal,
      Path base)
      throws IOException {
    XYChart chart = chart(title, xLabel, yLabel, Axes.LINEAR, 800, 500);
    double low = Double.POSITIVE_INFINITY;
    double high = Double.NEGATIVE_INFINITY;
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      chart
          .addSeries(e.getKey(), e.getValue()[0], e.getValue()[1])
          .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      for (double[] values : e.getValue()) {
        for (double v : values) {
          low = Math.min(low, v);
          high = Math.max(high, v);
        }
      }
    }
    if (diagonal && low < high) {
      chart
          .addSeries("y = x", new double[] {low, high}, new double[] {low, high})
          .setMarker(SeriesMarkers.NONE)
          .setLineColor(java.awt.Color.GRAY);
    }
    return write(chart, base);
  }

  /** An empty chart with this title and these axes. */
  private static XYChart chart(
      String title, String xLabel, String yLabel, Axes axes, int width, int height) {
    System.setProperty("java.awt.headless", "true");
    XYChart chart =
        new XYChartBuilder()
            .width(width)
            .height(height)
            .title(title)
            .xAxisTitle(xLabel)
            .yAxisTitle(yLabel)
            .build();
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setXAxisLogarithmic(axes.logX());
    chart.getStyler().setYAxisLogarithmic(axes.logY());
    if (!Double.isNaN(axes.yMax())) {
      chart.getStyler().setYAxisMax(axes.yMax());
    }
    if (axes.yPattern() != null) {
      chart.getStyler().setYAxisDecimalPattern(axes.yPattern());
    }
    return chart;
  }

  /** Writes {@code base}.png and {@code base}.svg, each whole or not at all. */
  private static List<Path> write(XYChart chart, Path base) throws IOException {
    AtomicWrite.createDirectories(base.toAbsolutePath().getParent());
    Path png = Path.of(base + ".png");
    Path svg = Path.of(base + ".svg");
    byte[] bitmap = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    AtomicWrite.write(png, out -> out.write(bitmap));
    AtomicWrite.write(svg, svg(chart)::writeTo);
    return List.of(png, svg);
  }

  /** The chart as SVG, drawn in memory (a chart is kilobytes) for {@link AtomicWrite}. */
  private static ByteArrayOutputStream svg(XYChart chart) throws IOException {
    ByteArrayOutputStream svg = new ByteArrayOutputStream();
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, svg, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    return svg;
  }

  /** The points that can be drawn on these axes. */
  private static double[][] plottable(double[][] xy, Axes axes) {
    int n = 0;
    double[][] kept = new double[2][xy[0].length];
    for (int i = 0; i < xy[0].length; i++) {
      if (fits(xy[0][i], axes.logX()) && fits(xy[1][i], axes.logY())) {
        kept[0][n] = xy[0][i];
        kept[1][n++] = xy[1][i];
      }
    }
    return new double[][] {Arrays.copyOf(kept[0], n), Arrays.copyOf(kept[1], n)};
  }

  private static boolean fits(double v, boolean log) {
    return Double.isFinite(v) && (!log || v > 0);
  }
}
