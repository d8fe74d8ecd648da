package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The wall time a request spends in backend calls: overlapping calls once, clipped to the request, its threads'. */
class RequestBackendTimeTest {

    @Test
    void overlappingCallsCountOnceAndGapsNotAtAll() {
        RequestBackendTime t = new RequestBackendTime(1_000);
        t.add(1_100, 1_300);
        t.add(1_200, 1_400); // overlaps the first: together 1_100..1_400
        t.add(1_500, 1_600);
        t.add(1_550, 1_560); // inside the third
        assertThat(t.wallNanos(2_000)).isEqualTo(300 + 100);
    }

    @Test
    void callsAreClippedToTheRequest() {
        RequestBackendTime t = new RequestBackendTime(1_000);
        t.add(900, 1_100);   // began before the request: 100 inside it
        t.add(1_900, 2_500); // ends after "until": 100 inside it
        assertThat(t.wallNanos(2_000)).isEqualTo(200);
        assertThat(new RequestBackendTime(0).wallNanos(10)).isZero();
    }

    @Test
    void aClosedRequestTakesNoMoreCalls() {
        RequestBackendTime t = new RequestBackendTime(0);
        t.add(10, 20);
        t.close();
        t.add(30, 40);
        assertThat(t.wallNanos(100)).isEqualTo(10);
    }

    @Test
    void theObserverAttributesCallsOfTheRequestAndOfTheThreadsItStarts() throws Exception {
        long call = 1_000_000_000L;
        RequestBackendTime.CALL_ENDED.accept(call); // no request on this thread: ignored, no failure
        RequestBackendTime request;
        try (RequestBackendTime scope = RequestBackendTime.open()) {
            request = scope;
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                threads.submit(() -> RequestBackendTime.CALL_ENDED.accept(call)).get();
            }
            long now = System.nanoTime();
            // the call, reported by a thread the request started, "took a second": it covers the request up to then
            assertThat(request.wallNanos(now)).isPositive().isLessThanOrEqualTo(now - request.start());
        }
    }
}
