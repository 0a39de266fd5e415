/** The main job: a CPU-bound farm measured against its sequential loop (speedup, efficiency, statistics). */
package org.bbflow.examples.demo;
