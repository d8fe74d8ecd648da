package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AdmissionTest {
    @Test
    void turnsAreQueuedUpToTheCapacityThenRefused() throws Exception {
        Admission admission = new Admission(new EsRestApi.Limits(2, 1, 1000));
        Admission.Ticket a = admission.enter("GET", "/a");
        Admission.Ticket b = admission.enter("GET", "/b");
        CountDownLatch entered = new CountDownLatch(1);
        Thread waiter = Thread.ofVirtual().start(() -> {
            try (Admission.Ticket c = admission.enter("GET", "/c")) {
                entered.countDown();
            }
        });
        // the third waits for a turn; the fourth finds the queue full
        assertThat(entered.await(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThatThrownBy(() -> admission.enter("POST", "/d/_search"))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.REJECTED_EXECUTION);
                    assertThat(e).hasMessageContaining("[POST /d/_search]").hasMessageContaining("queue capacity = 1");
                });
        a.close();
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        waiter.join();
        b.close();
        // every turn given back: two run at once again
        try (Admission.Ticket x = admission.enter("GET", "/x"); Admission.Ticket y = admission.enter("GET", "/y")) {
            assertThat(admission.rejected()).isEqualTo(1);
        }
    }

    @Test
    void writeBytesInFlightAreBounded() {
        Admission admission = new Admission(new EsRestApi.Limits(1, 0, 100));
        Admission.Ticket sixty = admission.holdWriteBytes(60);
        assertThatThrownBy(() -> admission.holdWriteBytes(41)).hasMessage("rejected execution of coordinating"
                + " operation [coordinating_and_primary_bytes=60, replica_bytes=0, all_bytes=60,"
                + " coordinating_operation_bytes=41, max_coordinating_and_primary_bytes=100]");
        try (Admission.Ticket forty = admission.holdWriteBytes(40)) {
            assertThat(admission.writeBytesInFlight()).isEqualTo(100);
        }
        sixty.close();
        assertThat(admission.writeBytesInFlight()).isZero();
        assertThatThrownBy(() -> admission.holdWriteBytes(101)).isInstanceOf(GatewayException.class);
    }
}
