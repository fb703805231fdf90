package org.largecat.model;

import java.nio.file.Path;

/**
 * Saves a model of K × D = args[1] × args[2] over args[0] and then prints "saved"; run in a child
 * JVM by {@link InterruptedSaveTest}, which kills it or caps its file size mid-write.
 */
public final class SaveModelMain {
  private SaveModelMain() {}

  public static void main(String[] args) throws Exception {
    LinearModel model =
        LinearModel.zeros(Link.SOFTMAX, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
    java.util.Arrays.fill(model.weights(), 0.5f);
    System.out.println("writing");
    System.out.flush();
    ModelFile.write(model, Path.of(args[0]));
    System.out.println("saved");
  }
}
