package org.bbflow.core;

/** The parked slot of a {@link Waiter}, between its two paddings. */
abstract class WaiterSlot extends WaiterPad0 {
    /** The thread parked (or about to park) in this waiter, else null. */
    volatile Thread parked;
}
