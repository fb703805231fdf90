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
    System.setProperty("java.awt.headless", "true");
    Files.createDirectories(base.toAbsolutePath().getParent());
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]).setMarker(SeriesMarkers.NONE);
    }
    BitmapEncoder.saveBitmap(chart, base.toString(), BitmapEncoder.BitmapFormat.PNG);
    VectorGraphicsEncoder.saveVectorGraphic(chart, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    return List.of(Path.of(base + ".png"), Path.of(base + ".svg"));
  }
}
