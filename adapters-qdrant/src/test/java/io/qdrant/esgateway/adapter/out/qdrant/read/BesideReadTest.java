package io.qdrant.esgateway.adapter.out.qdrant.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BesideReadTest {

    @Test
    void theReadRunsWhileTheCallerWorks() throws Exception {
        CountDownLatch callerWorking = new CountDownLatch(1);
        BesideRead<String> read = BesideRead.start(() -> {
            try {
                // run one after the other, this would wait forever: the guard only keeps a broken build from hanging
                return callerWorking.await(60, TimeUnit.SECONDS) ? "overlapped" : "sequential";
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        callerWorking.countDown();
        assertThat(read.join()).isEqualTo("overlapped");
    }

    @Test
    void theReadSeesTheCallersInheritableThreadLocals() {
        InheritableThreadLocal<String> request = new InheritableThreadLocal<>();
        request.set("request-1");
        try {
            assertThat(BesideRead.start(request::get).join()).isEqualTo("request-1");
        } finally {
            request.remove();
        }
    }

    @Test
    void aFailedReadIsRethrownAsItWasThrown() {
        IllegalArgumentException failure = new IllegalArgumentException("count failed");
        BesideRead<Long> read = BesideRead.start(() -> {
            throw failure;
        });
        assertThatThrownBy(read::join).isSameAs(failure);
    }

    @Test
    void whenBothFailTheReadsFailureWinsAsIfItHadRunFirst() {
        IllegalArgumentException countFailure = new IllegalArgumentException("count failed");
        IllegalStateException pageFailure = new IllegalStateException("page failed");
        BesideRead<Long> failing = BesideRead.start(() -> {
            throw countFailure;
        });
        assertThatThrownBy(() -> {
            throw failing.settle(pageFailure);
        }).isSameAs(countFailure);

        BesideRead<Long> fine = BesideRead.start(() -> 7L);
        assertThat(fine.settle(pageFailure)).isSameAs(pageFailure);
    }
}
