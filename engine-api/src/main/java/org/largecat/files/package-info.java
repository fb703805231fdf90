/** Files a largecat process leaves beside its outputs or in the temporary directory. */
package org.largecat.files;
