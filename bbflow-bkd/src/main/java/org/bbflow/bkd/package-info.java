/**
 * A concurrent Bkd-tree: a dynamic multidimensional point index built on BBFlow.
 */
package org.bbflow.bkd;
