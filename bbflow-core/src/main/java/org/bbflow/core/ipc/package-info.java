/**
 * Inter-process channels: a one-to-one or many-to-one stream of variable-size records between JVMs
 * on one host, over a memory-mapped file holding Agrona's {@code OneToOneRingBuffer} or
 * {@code ManyToOneRingBuffer}.
 *
 * <p>The consumer creates the file with {@link org.bbflow.core.ipc.IpcReceiver#create}; producers
 * attach with {@link org.bbflow.core.ipc.IpcSender#open}. The file starts with a versioned header
 * (magic, version, kind, capacity, the ring's record layout, the receiver codec's record format name,
 * producer slots) that every opener checks: a sender whose codec names another
 * {@link org.bbflow.core.ipc.IpcCodec#recordFormat()} is refused. Of concurrent creates on one path
 * exactly one wins, and a live receiver's file is never replaced. Items are encoded in
 * place by an {@link org.bbflow.core.ipc.IpcCodec}; end of stream is each producer closing its end;
 * a producer process that dies (even mid-claim) is detected through an OS file lock it held, its
 * unfinished claim is skipped with Agrona's {@code unblock()}, and the loss is reported.
 * {@link org.bbflow.core.ipc.IpcSource} and {@link org.bbflow.core.ipc.IpcSink} plug the channel into
 * flows.
 *
 * <p>Agrona 2 accesses the mapped file through {@code jdk.internal.misc.Unsafe}, so a JVM that uses
 * this package needs {@code --add-opens java.base/jdk.internal.misc=ALL-UNNAMED} (class path) or
 * {@code --add-opens java.base/jdk.internal.misc=org.agrona} (module path); without it, creating or
 * opening a channel throws an {@link java.lang.IllegalStateException} naming the option.
 */
package org.bbflow.core.ipc;
