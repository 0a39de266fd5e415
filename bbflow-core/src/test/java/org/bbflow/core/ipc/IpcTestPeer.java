package org.bbflow.core.ipc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 *   <li>{@code create-race <dir> 0}: prints {@code READY}, then follows commands on its stdin, one a
 *       line: {@code CREATE <file> <hook 0|1|2> <spinNanos>} spins that long, then creates a receiver
 *       on {@code file} and prints {@code WON} or {@code REFUSED <message>}; with hook 1, the create
 *       prints {@code DECIDED} once it decided to replace the file and waits for a {@code GO} line
 *       before it does; with hook 2, it prints {@code OPENED} once it opened the file at the path
 *       (the first time) and waits for {@code GO} before it takes the file's lock; with hook 3,
 *       it prints {@code TEMP} once it made its temporary file (the first one), before it locks it,
 *       and waits for {@code GO}; with hook 4, {@code LOCKED} once it locked it, before its header;
 *       {@code TAKE} prints {@code TOOK <item>} (or {@code NOTHING} after 30 s);
 *       {@code CLOSE} closes the receiver and prints {@code CLOSED}; {@code EXIT} ends.</li>
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

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Says {@code what}, then waits for a {@code GO} line (the main thread waits in create: this is the only reader). */
    private static void awaitGo(BufferedReader in, String what) {
        say(what);
        try {
            String go = in.readLine();
            if (!"GO".equals(go)) {
                throw new IllegalStateException("expected GO, got " + go);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void createRace() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        IpcReceiver<Long> rx = null;
        say("READY");
        for (String line; (line = in.readLine()) != null; ) {
            String[] w = line.split(" ");
            switch (w[0]) {
                case "CREATE": {
                    Path file = Path.of(w[1]);
                    IpcFile.beforeReplace = w[2].equals("1") ? () -> awaitGo(in, "DECIDED") : null;
                    AtomicBoolean tempOnce = new AtomicBoolean();
                    IpcFile.afterTempCreated = w[2].equals("3") ? () -> {
                        if (tempOnce.compareAndSet(false, true)) {
                            awaitGo(in, "TEMP");
                        }
                    } : null;
                    IpcFile.afterTempLocked = w[2].equals("4") ? () -> awaitGo(in, "LOCKED") : null;
                    AtomicBoolean once = new AtomicBoolean();
                    IpcFile.beforeLock = w[2].equals("2") ? () -> {
                        if (once.compareAndSet(false, true)) {
                            awaitGo(in, "OPENED");
                        }
                    } : null;
                    long until = System.nanoTime() + Long.parseLong(w[3]);
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    try {
                        rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096));
                        say("WON");
                    } catch (IpcException e) {
                        say("REFUSED " + e.getMessage().replace('\n', ' '));
                    } finally {
                        IpcFile.beforeReplace = null;
                        IpcFile.beforeLock = null;
                        IpcFile.afterTempCreated = null;
                        IpcFile.afterTempLocked = null;
                    }
                    break;
                }
                case "TAKE": {
                    Long item = null;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (rx != null && (item = rx.poll()) == null && !rx.isEos() && System.nanoTime() - deadline < 0) {
                        Thread.onSpinWait();
                    }
                    say(item == null ? "NOTHING" : "TOOK " + item);
                    break;
                }
                case "CLOSE": {
                    rx.close();
                    rx = null;
                    say("CLOSED");
                    break;
                }
                case "EXIT":
                    return;
                default:
                    throw new IllegalArgumentException("unknown command " + line);
            }
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
            case "create-race": {
                createRace();
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
