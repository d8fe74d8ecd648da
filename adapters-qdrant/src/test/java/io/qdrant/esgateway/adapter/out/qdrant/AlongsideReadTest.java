package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AlongsideReadTest {

    @Test
    void theReadRunsWhileTheCallerWorks() throws Exception {
        CountDownLatch callerWorking = new CountDownLatch(1);
        AlongsideRead<String> read = AlongsideRead.start(() -> {
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
            assertThat(AlongsideRead.start(request::get).join()).isEqualTo("request-1");
        } finally {
            request.remove();
        }
    }

    @Test
    void aFailedReadIsRethrownAsItWasThrown() {
        IllegalArgumentException failure = new IllegalArgumentException("count failed");
        AlongsideRead<Long> read = AlongsideRead.start(() -> {
            throw failure;
        });
        assertThatThrownBy(read::join).isSameAs(failure);
    }

    @Test
    void whenBothFailTheReadsFailureWinsAsIfItHadRunFirst() {
        IllegalArgumentException countFailure = new IllegalArgumentException("count failed");
        IllegalStateException pageFailure = new IllegalStateException("page failed");
        AlongsideRead<Long> failing = AlongsideRead.start(() -> {
            throw countFailure;
        });
        assertThatThrownBy(() -> {
            throw failing.settle(pageFailure);
        }).isSameAs(countFailure);

        AlongsideRead<Long> fine = AlongsideRead.start(() -> 7L);
        assertThat(fine.settle(pageFailure)).isSameAs(pageFailure);
    }
}
