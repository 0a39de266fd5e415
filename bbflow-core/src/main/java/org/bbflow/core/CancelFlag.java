package org.bbflow.core;

/** The flow's cancellation flag, read by every node per item; padded (128 bytes each side, a superclass chain) so no other write shares its line. */
final class CancelFlag extends CancelFlagPad1 {
}
