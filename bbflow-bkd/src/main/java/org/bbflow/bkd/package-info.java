/**
 * A concurrent Bkd-tree: a dynamic multidimensional point index built on BBFlow.
 *
 * <p>Entry point: {@link org.bbflow.bkd.BkdTree} (configured through
 * {@link org.bbflow.bkd.BkdTree.Builder}). Queries take a {@link org.bbflow.bkd.Box} and optionally
 * a {@link org.bbflow.bkd.PointVisitor}; {@link org.bbflow.bkd.Snapshot} gives a repeatable view,
 * {@link org.bbflow.bkd.BkdWriter} a per-writer insert handle and
 * {@link org.bbflow.bkd.BkdStats} a summary. Everything else is package-private.
 */
package org.bbflow.bkd;
