package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * A parked thread is taken out of its waiter by the first waker only: one unpark per park, however
 * many peers try (the race itself is checked by jcstress, {@code WakeupStress.OneUnparkPerPark}).
 */
class WaiterTest {

    @Test
    void theFirstWakerTakesTheParkedThreadAndLaterOnesFindTheSlotEmpty() {
        Waiter w = new Waiter();
        Thread parked = new Thread(() -> { });
        w.parked = parked;
        assertSame(parked, w.takeParked());
        assertNull(w.takeParked());
        assertNull(w.parked);
        w.wakeIfParked(); // nothing parked: no unpark, no failure
        w.parked = parked; // parked again: the next waker takes it again
        assertSame(parked, w.takeParked());
    }

    @Test
    void anEmptyWaiterHasNothingToTake() {
        assertNull(new Waiter().takeParked());
    }
}
