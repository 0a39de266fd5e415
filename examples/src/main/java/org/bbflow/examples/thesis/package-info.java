/** The examples of the BBFlow thesis manual (Appendix A), one small flow each. */
package org.bbflow.examples.thesis;
