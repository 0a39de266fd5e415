/**
 * The bridge between flows and the JVM's reactive world ({@link java.util.concurrent.Flow}, the
 * Reactive Streams interfaces of the JDK, which Reactor, RxJava and Akka/Pekko Streams adapt to).
 *
 * <ul>
 *   <li>{@link org.bbflow.core.reactive.PublisherSource}: a {@code Flow.Publisher} as the source of
 *       a flow. It requests a bounded number of items ahead (its prefetch) and asks for more only
 *       as the flow takes them, so a slow flow slows the publisher and nothing is buffered without
 *       bound.</li>
 *   <li>{@link org.bbflow.core.reactive.FlowPublisher}: a flow's output as a {@code Flow.Publisher}.
 *       Each subscriber runs its own flow; its last stage hands an item on only against the
 *       subscriber's demand, and until there is demand the flow's bounded channels fill and its
 *       producers wait.</li>
 * </ul>
 *
 * <p>Cancellation and errors cross the bridge both ways: a subscriber's {@code cancel()} cancels its
 * flow, and a flow that ends early (failed or cancelled) cancels the subscription its source holds;
 * a publisher's {@code onError} fails the flow with that exception as the cause, and a flow's
 * failure reaches the subscriber as {@code onError} with the flow's
 * {@link org.bbflow.core.FlowException}. Both sides are checked against the Reactive Streams TCK.
 */
package org.bbflow.core.reactive;
