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
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Line and scatter charts of experiment results, written as PNG and SVG with XChart (headless). */
public final class Plots {
  private Plots() {}

  /**
   * Draws one line per series (x values, y values) and writes {@code base}.png and {@code base}.svg;
   * returns their paths.
   */
  public static List<Path> lines(String title, String xLabel, String yLabel, Map<String, double[][]> series, Path base)
      throws IOException {
    XYChart chart = chart(title, xLabel, yLabel);
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]).setMarker(SeriesMarkers.NONE);
    }
    return write(chart, base);
  }

  /**
   * Draws one set of points per series (x values, y values), with the line y = x across their range
   * when {@code diagonal}, and writes {@code base}.png and {@code base}.svg; returns their paths.
   */
  public static List<Path> scatter(String title, String xLabel, String yLabel, Map<String, double[][]> series,
      boolean diagonal, Path base) throws IOException {
    XYChart chart = chart(title, xLabel, yLabel);
    double low = Double.POSITIVE_INFINITY;
    double high = Double.NEGATIVE_INFINITY;
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]).setXYSeriesRenderStyle(
          XYSeries.XYSeriesRenderStyle.Scatter);
      for (double[] values : e.getValue()) {
        for (double v : values) {
          low = Math.min(low, v);
          high = Math.max(high, v);
        }
      }
    }
    if (diagonal && low < high) {
      chart.addSeries("y = x", new double[] {low, high}, new double[] {low, high}).setMarker(SeriesMarkers.NONE)
          .setLineColor(java.awt.Color.GRAY);
    }
    return write(chart, base);
  }

  private static XYChart chart(String title, String xLabel, String yLabel) {
    System.setProperty("java.awt.headless", "true");
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    return chart;
  }

  private static List<Path> write(XYChart chart, Path base) throws IOException {
    Files.createDirectories(base.toAbsolutePath().getParent());
    BitmapEncoder.saveBitmap(chart, base.toString(), BitmapEncoder.BitmapFormat.PNG);
    VectorGraphicsEncoder.saveVectorGraphic(chart, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    return List.of(Path.of(base + ".png"), Path.of(base + ".svg"));
  }
}
