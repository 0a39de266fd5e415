package org.bbflow.net;

import org.bbflow.testing.ForkSliceContract;

/** This module's tests run in two JVMs at once: each takes its ports from its own fork's slice. */
class ForkSliceTest extends ForkSliceContract {
}
