package org.largecat.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What an experiment produced: its tables (each printed and written as CSV and JSON) and its
 * figures' files.
 */
public record ExperimentResult(List<ResultTable> tables, List<Path> figures) {

  public ExperimentResult {
    tables = List.copyOf(tables);
    figures = List.copyOf(figures);
  }

  public static ExperimentResult of(ResultTable table, List<Path> figures) {
    return new ExperimentResult(List.of(table), figures);
  }

  /** The tables and figures of several experiments, in order. */
  public static ExperimentResult concat(List<ExperimentResult> parts) {
    List<ResultTable> tables = new ArrayList<>();
    List<Path> figures = new ArrayList<>();
    for (ExperimentResult part : parts) {
      tables.addAll(part.tables);
      figures.addAll(part.figures);
    }
    return new ExperimentResult(tables, figures);
  }
}
