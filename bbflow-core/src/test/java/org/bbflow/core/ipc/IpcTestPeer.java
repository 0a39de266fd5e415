package org.bbflow.core.ipc;

import java.nio.file.Path;
import java.time.Duration;
import org.agrona.MutableDirectBuffer;

/**
 * The other JVM in the inter-process tests. Modes:
 * <ul>
 *   <li>{@code produce <file> <count>}: sends {@code count} checksummed 16-byte records, then closes.</li>
 *   <li>{@code claim-and-hang <file> <count>}: sends {@code count} records, claims one more without
 *       committing it, prints {@code CLAIMED} and waits to be killed.</li>
 *   <li>{@code consume-and-hang <file> <capacity>}: creates the channel as receiver, prints
 *       {@code READY} and never reads (waits to be killed).</li>
 *   <li>{@code two-close-one <file> <pauseMillis>}: opens two senders in this one JVM, sends one record
 *       on each, closes the first, stays silent for {@code pauseMillis}, then sends one more record on
 *       the second and closes it.</li>
 *   <li>{@code probe <file> <slot>}: prints {@code consumer-dead=<b> producer-dead=<b>} as the liveness
 *       locks of the receiver and of producer {@code slot} look from this other process.</li>
 * </ul>
 */
public final class IpcTestPeer {
    private IpcTestPeer() {
    }

    /** The checksum carried next to each sequence number. */
    static long check(int producer, long seq) {
        long z = seq + 0x9E3779B97F4A7C15L * (producer + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Writes {@code count} records with sequence numbers 0..count-1 through the raw claim path. */
    static void produce(IpcSender<?> tx, long count) {
        MutableDirectBuffer b = tx.buffer();
        int producer = tx.producerId();
        for (long seq = 0; seq < count; seq++) {
            int i = tx.claim(16);
            b.putLong(i, seq);
            b.putLong(i + 8, check(producer, seq));
            tx.commit(i);
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path file = Path.of(args[1]);
        long n = Long.parseLong(args[2]);
        switch (mode) {
            case "produce": {
                try (IpcSender<byte[]> tx = IpcSender.open(file, IpcCodec.bytes(),
                        IpcOptions.defaults().withPeerTimeout(Duration.ofSeconds(5)))) {
                    produce(tx, n);
                }
                System.out.println("DONE");
                break;
            }
            case "claim-and-hang": {
                IpcSender<byte[]> tx = IpcSender.open(file, IpcCodec.bytes());
                produce(tx, n);
                int i = tx.claim(16);
                tx.buffer().putLong(i, -1L);
                System.out.println("CLAIMED");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
                break;
            }
            case "consume-and-hang": {
                IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(), IpcOptions.defaults().withCapacity((int) n));
                System.out.println("READY " + rx.producers());
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
                break;
            }
            case "two-close-one": {
                IpcSender<byte[]> first = IpcSender.open(file, IpcCodec.bytes());
                try (IpcSender<byte[]> second = IpcSender.open(file, IpcCodec.bytes())) {
                    produce(first, 1);
                    produce(second, 1);
                    first.close();
                    Thread.sleep(n);
                    int i = second.claim(16);
                    second.buffer().putLong(i, 1L);
                    second.buffer().putLong(i + 8, check(second.producerId(), 1L));
                    second.commit(i);
                }
                System.out.println("DONE");
                break;
            }
            case "probe": {
                try (IpcFile f = IpcFile.open(file)) {
                    System.out.println("consumer-dead=" + f.consumerDead() + " producer-dead=" + f.producerDead((int) n));
                }
                break;
            }
            default:
                throw new IllegalArgumentException("unknown mode " + mode);
        }
    }
}
