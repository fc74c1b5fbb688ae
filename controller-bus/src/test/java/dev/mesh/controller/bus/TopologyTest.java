package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyTest {

    @Test
    void controllerQueues_haveTheArgumentsOfTheWireContract() {
        assertThat(Topology.controllerQueueArguments()).isEqualTo(Map.of("x-queue-type", "quorum",
                "x-single-active-consumer", true, "x-delivery-limit", 5, "x-dead-letter-exchange",
                "mesh-controller.dead"));
    }

    @Test
    void refusal_namesTheQueueTheArgumentAndTheFix() {
        String line = Topology.refusal("queue", "mesh-controller.verbs", "PRECONDITION_FAILED - inequivalent arg "
                + "'x-delivery-limit' for queue 'mesh-controller.verbs' in vhost 'v': received the value '5' of type "
                + "'signedint' but current is the value '3' of type 'long'");

        assertThat(line).isEqualTo("queue mesh-controller.verbs exists with other arguments: its x-delivery-limit "
                + "differs from the controller's (the broker says: PRECONDITION_FAILED - inequivalent arg "
                + "'x-delivery-limit' for queue 'mesh-controller.verbs' in vhost 'v': received the value '5' of type "
                + "'signedint' but current is the value '3' of type 'long'); delete the queue, or migrate it, then "
                + "start again");
    }

    @Test
    void refusal_withoutAnArgumentInTheReply_stillTellsTheFix() {
        assertThat(Topology.refusal("exchange", "mesh.builds", "PRECONDITION_FAILED - something else"))
                .isEqualTo("exchange mesh.builds exists with other arguments: one of them differs from the "
                        + "controller's (the broker says: PRECONDITION_FAILED - something else); delete the exchange, "
                        + "or migrate it, then start again");
    }
}
