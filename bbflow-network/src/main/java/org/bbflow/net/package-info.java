/**
 * TCP channels over Netty: remote edges between JVMs as ordinary blocks.
 *
 * <ul>
 *   <li>{@link org.bbflow.net.NetServer} listens and hosts {@link org.bbflow.net.RemoteInlet}s (receiving
 *       ends, one per channel id); {@link org.bbflow.net.NetClient} connects and opens
 *       {@link org.bbflow.net.RemoteOutlet}s (sending ends). Several channels share a connection.</li>
 *   <li>{@link org.bbflow.net.RemoteBlocks} wraps them as a sink {@code Node} and a {@code Source} for
 *       pipelines and farms.</li>
 *   <li>{@link org.bbflow.net.Codec} encodes items straight into pooled buffers; built-ins for primitives,
 *       strings, arrays and records; Java serialization only on request, behind a filter.</li>
 *   <li>{@link org.bbflow.net.NetOptions}: batching and flush delay, window (backpressure), maximum
 *       frame size, peer timeout, heartbeats, first-connect timeout, TLS (host names verified;
 *       {@link org.bbflow.net.TlsContexts} for mutual TLS), shared-secret handshake.</li>
 * </ul>
 *
 * Items are batched into length-prefixed frames carrying sequence numbers; the receiver
 * acknowledges what it consumed, the sender keeps unacknowledged frames (bounded by the window) and
 * replays them after a reconnect, so a dropped connection loses and doubles nothing. A stream ends
 * only by {@link org.bbflow.net.RemoteOutlet#complete()}; closing an outlet without it aborts. A
 * restarted peer (a new incarnation id) never resumes an old stream. Failures surface as
 * {@link org.bbflow.net.RemoteChannelException}, a {@code FlowException}.
 */
package org.bbflow.net;
