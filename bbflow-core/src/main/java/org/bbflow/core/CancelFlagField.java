package org.bbflow.core;

/** The flag of a {@link CancelFlag}, between its two paddings. */
abstract class CancelFlagField extends CancelFlagPad0 {
    /** Raised once when the flow is cancelled; read by every node per item. */
    volatile boolean raised;
}
