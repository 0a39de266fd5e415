/**
 * BBFlow's remote channels: TCP inlets and outlets over Netty, codecs, TLS and authentication.
 *
 * <p>Compiled after the tests and added to the jar at package time (the parent POM's
 * {@code module-descriptor} profile). A record type given to {@code Codec.record} must be in a
 * package its module exports (or opens) to {@code org.bbflow.net}.
 */
module org.bbflow.net {
    requires transitive org.bbflow.core;
    // Netty's jars are automatic modules; ByteBuf (codecs) and SslContext (TLS) are in the API.
    requires transitive io.netty.buffer;
    requires transitive io.netty.handler;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.transport;
    // java.util.logging: its configuration and formatters are loaded before a flood can use up the descriptors (Preload)
    requires java.logging;

    exports org.bbflow.net;
    exports org.bbflow.net.dist;
}
