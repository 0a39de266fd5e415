/** Concurrent ingest into a Bkd-tree by a farm of inserters while readers run window queries. */
package org.bbflow.examples.bkd;
