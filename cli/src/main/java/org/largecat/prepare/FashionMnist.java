package org.largecat.prepare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.largecat.data.DataFileException;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;

/**
 * Fashion-MNIST (Xiao, Rasul and Vollgraf 2017) from the IDX files of Debian's
 * dataset-fashion-mnist: its own split of 60,000 training and 10,000 test images of 28 x 28 = 784
 * pixels, 10 classes. Pixels are divided by 255, as A&R §4.2 does for MNIST, so features lie in [0,
 * 1]; zero pixels are left out.
 */
public final class FashionMnist {
  public static final DebianPackage PACKAGE = new DebianPackage("dataset-fashion-mnist");
  public static final Path DEFAULT_DIR = Path.of("/usr/share/datasets/fashion-mnist");

  /** The class names of the Fashion-MNIST README, label 0 first. */
  static final List<String> CLASS_NAMES =
      List.of(
          "T-shirt/top",
          "Trouser",
          "Pullover",
          "Dress",
          "Coat",
          "Sandal",
          "Shirt",
          "Sneaker",
          "Bag",
          "Ankle boot");

  private static final String[] FILES = {
    "train-images-idx3-ubyte",
    "train-labels-idx1-ubyte",
    "t10k-images-idx3-ubyte",
    "t10k-labels-idx1-ubyte"
  };

  private FashionMnist() {}

  /** Whether {@code dir} holds the four IDX files (each plain or gzipped). */
  public static boolean installed(Path dir) {
    for (String name : FILES) {
      if (locate(dir, name) == null) {
        return false;
      }
    }
    return true;
  }

  /** Reads the four IDX files in {@code dir}. */
  public static PreparedSet prepare(Path dir) throws IOException {
    Path[] files = new Path[FILES.length];
    for (int i = 0; i < FILES.length; i++) {
      files[i] = locate(dir, FILES[i]);
      if (files[i] == null) {
        throw PACKAGE.missing("no " + FILES[i] + " or " + FILES[i] + ".gz in " + dir);
      }
    }
    Dataset train = examples(files[0], files[1]);
    Dataset test = examples(files[2], files[3]);
    String source =
        "Debian package "
            + PACKAGE.name()
            + " "
            + PACKAGE.version()
            + ": "
            + String.join(", ", Arrays.stream(files).map(Path::toString).toList());
    return new PreparedSet(
        "fashion-mnist",
        train,
        test,
        CLASS_NAMES,
        source,
        "one example per image; feature j = pixel j of the 28 x 28 image in row-major order, divided by 255"
            + " (A&R §4.2's MNIST preprocessing), zero pixels left out; label = the IDX label (0 T-shirt/top ... 9 Ankle boot)",
        "the source's own: train-* files (60,000 images) to train.txt, t10k-* files (10,000) to test.txt, in file order");
  }

  /** The images of one IDX image file with the labels of its label file, as sparse rows. */
  static Dataset examples(Path imageFile, Path labelFile) throws IOException {
    IdxFile images = IdxFile.read(imageFile, 3);
    IdxFile labels = IdxFile.read(labelFile, 1);
    int rows = images.shape()[0];
    int pixels = images.shape()[1] * images.shape()[2];
    if (labels.shape()[0] != rows) {
      throw new DataFileException(
          labelFile,
          0,
          "it has " + labels.shape()[0] + " labels but " + imageFile + " has " + rows + " images");
    }
    int[] y = new int[rows];
    int[] indptr = new int[rows + 1];
    int nonzero = 0;
    for (int n = 0; n < rows; n++) {
      y[n] = labels.data()[n] & 0xff;
      if (y[n] >= CLASS_NAMES.size()) {
        throw new DataFileException(
            labelFile,
            0,
            "label "
                + n
                + " is "
                + y[n]
                + ", beyond the "
                + CLASS_NAMES.size()
                + " Fashion-MNIST classes");
      }
      for (int j = n * pixels; j < (n + 1) * pixels; j++) {
        nonzero += images.data()[j] != 0 ? 1 : 0;
      }
      indptr[n + 1] = nonzero;
    }
    int[] indices = new int[nonzero];
    float[] values = new float[nonzero];
    for (int j = 0, at = 0; j < images.data().length; j++) {
      int pixel = images.data()[j] & 0xff;
      if (pixel != 0) {
        indices[at] = j % pixels;
        values[at++] = pixel / 255f;
      }
    }
    return new Dataset(
        new SparseFeatures(rows, pixels, indptr, indices, values), y, CLASS_NAMES.size());
  }

  private static Path locate(Path dir, String name) {
    for (Path candidate : new Path[] {dir.resolve(name + ".gz"), dir.resolve(name)}) {
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
