package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link NodeContext#inputIndex()} and {@link NodeContext#fromFeedback()} describe the current item
 * only (issue 28, finding 8): -1 and false again once {@code onItem} has returned, so {@code onEos}
 * sees no stale input, and a right member of an all-to-all with feedback that sends from
 * {@code onEos} gets the error that says so.
 */
@Timeout(60)
class NodeContextResetTest {

    @Test
    void onEosSeesNoInputIndexAndNoFeedback() {
        List<String> seen = new ArrayList<>();
        Node<Long, Long> merge = new Node<>() {
            NodeContext ctx;

            @Override
            public void init(NodeContext c) {
                ctx = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                if (ctx.inputIndex() < 0) {
                    throw new AssertionError("an item without its input index");
                }
            }

            @Override
            public void onEos(Outbox<Long> o) {
                seen.add(ctx.inputIndex() + " " + ctx.fromFeedback());
            }
        };
        Runs.run(Pipeline.of(Nodes.range(1, 100), Farm.of(3, () -> Nodes.<Long>identity()).withoutCollector(), merge));
        assertEquals(List.of("-1 false"), seen);
    }

    @Test
    void fromFeedbackIsFalseAgainAfterAFedBackItem() {
        List<String> seen = new ArrayList<>();
        Node<Long, Long> head = new Node<>() {
            NodeContext ctx;

            @Override
            public void init(NodeContext c) {
                ctx = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                o.send(x);
            }

            @Override
            public void onEos(Outbox<Long> o) {
                seen.add(ctx.inputIndex() + " " + ctx.fromFeedback());
            }
        };
        Node<Long, Long> back = Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x > 0) {
                o.send(x - 1);
            } else {
                o.sendTo(1, x);
            }
        });
        Runs.run(Pipeline.of(Nodes.range(1, 50), Pipeline.of(head, back).feedback(), Nodes.sink(x -> { })));
        assertEquals(List.of("-1 false"), seen);
    }

    @Test
    void aRightMemberSendingBackFromOnEosIsToldWhy() {
        Node<Long, Long> right = new Node<>() {
            @Override
            public void onItem(Long x, Outbox<Long> o) {
                o.sendTo(2, x); // forward: 2 left members, so output 2 leaves the all-to-all
            }

            @Override
            public void onEos(Outbox<Long> o) {
                o.send(-1L); // back to "the left member the current item came from": there is none
            }
        };
        AllToAll<Long, Long> loop = AllToAll.<Long, Long>of(List.of(Nodes.identity(), Nodes.identity()), List.of(right))
                .feedback();
        FlowException e = assertThrows(FlowException.class,
                () -> Runs.run(Pipeline.of(Nodes.range(1, 100), loop, Nodes.sink(x -> { }))));
        // today: the item goes back to the last item's origin, and the error blames the loop's end instead
        assertTrue(e.getCause().getMessage().contains("(onEos?)"), e.getCause().getMessage());
    }
}
