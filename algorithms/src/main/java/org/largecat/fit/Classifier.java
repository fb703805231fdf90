package org.largecat.fit;

import org.largecat.model.ScoreModel;

/** Placeholder until the scoring face lands. */
public final class Classifier {
  private final ScoreModel model;

  private Classifier(ScoreModel model) {
    this.model = model;
  }

  public static Classifier of(ScoreModel model) {
    return new Classifier(model);
  }

  public ScoreModel model() {
    return model;
  }
}
