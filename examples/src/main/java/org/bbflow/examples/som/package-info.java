/**
 * A self-organizing map trained by a farm whose workers each hold a strip of the map, with channels
 * between neighbouring workers and a feedback channel from collector to emitter (thesis, chapter 6).
 */
package org.bbflow.examples.som;
