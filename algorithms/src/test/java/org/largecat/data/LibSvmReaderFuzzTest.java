package org.largecat.data;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/** Fuzzes the LibSVM reader ({@link DataFileFuzzing} says against what). */
class LibSvmReaderFuzzTest {
  @FuzzTest
  void readsOrNamesTheFile(FuzzedDataProvider input) throws IOException {
    DataFileFuzzing.check(TextFormat.LIBSVM, input);
  }
}
