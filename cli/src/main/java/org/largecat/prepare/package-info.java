/**
 * The converters of {@code largecat data prepare}: each reads a dataset installed from a Debian
 * package and writes it in the Extreme Classification text format with its split and recipe. It
 * imports only {@code org.largecat.data}.
 */
package org.largecat.prepare;
