package org.largecat.cli;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output as the commands' PrintStream sees it, keeping the first write error (a full disk,
 * a closed pipe) that the PrintStream above would swallow, so that the run can fail with its
 * reason.
 */
final class WriteErrors extends OutputStream {
  private final OutputStream out;
  private IOException failure;

  WriteErrors(OutputStream out) {
    this.out = out;
  }

  /** The first write error, or null. */
  IOException failure() {
    return failure;
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw kept(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw kept(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw kept(e);
    }
  }

  private IOException kept(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }
}
