package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Collectors;
import org.bbflow.core.CollectorSink;
import org.bbflow.core.Comb;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;
import org.bbflow.core.StreamFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A node run as a routed member (a remote all-to-all member, or a remote node in a feedback loop). */
@Timeout(30)
class RoutedMemberTest {
    private static final IllegalStateException BOOM = new IllegalStateException("stream broke");

    /**
     * Left round: a collecting sink inside a routed member published the result of a stream its
     * source cut with a {@link StreamFailure}: the member's wrapped context hid the flow's failure
     * from the sink (it asked the context whether it was the runtime's own). The flow's failure now
     * reaches it through {@link org.bbflow.core.NodeContext#flowFailed()}, which the wrapper delegates.
     */
    @Test
    void aCollectorInARoutedMemberHoldsNoResultOfAStreamCutByAStreamFailure() {
        // as its group runs it: the task source and the member on one thread, a sink after them
        Source<Object> tasks = Nodes.source(o -> {
            for (long i = 1; i <= 100; i++) {
                o.send(new Routed(0, 1, 1, false, i));
            }
            throw new StreamFailure(BOOM);
        });
        CollectorSink<Object, Long> sum = Nodes.collect(Collectors.summingLong(x -> (Long) x));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Node<Object, Object> member = new RoutedMember((Node) sum);
        Flow flow = Flow.start(Pipeline.of(Comb.of(tasks, member), Nodes.sink(x -> { })).named("routed"));
        FlowException e = assertThrows(FlowException.class, flow::join);
        assertSame(BOOM, e.getCause(), "the stream's failure surfaces");
        String m = assertThrows(IllegalStateException.class, sum::result, "a result of a cut stream").getMessage();
        assertTrue(m.contains("no result"), m);
    }

    /** The same member over a whole stream holds the whole stream's result (the check above is not a blanket no). */
    @Test
    void aCollectorInARoutedMemberHoldsTheResultOfAWholeStream() {
        Source<Object> tasks = Nodes.source(o -> {
            for (long i = 1; i <= 100; i++) {
                o.send(new Routed(0, 1, 1, false, i));
            }
        });
        CollectorSink<Object, Long> sum = Nodes.collect(Collectors.summingLong(x -> (Long) x));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Node<Object, Object> member = new RoutedMember((Node) sum);
        Flow.start(Pipeline.of(Comb.of(tasks, member), Nodes.sink(x -> { })).named("routed")).join();
        assertEquals(5050L, sum.result());
    }
}
