package org.largecat.data;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/** Fuzzes the Extreme Classification reader ({@link DataFileFuzzing} says against what). */
class XcReaderFuzzTest {
  @FuzzTest
  void readsOrNamesTheFile(FuzzedDataProvider input) throws IOException {
    DataFileFuzzing.check(TextFormat.EXTREME_CLASSIFICATION, input);
  }
}
