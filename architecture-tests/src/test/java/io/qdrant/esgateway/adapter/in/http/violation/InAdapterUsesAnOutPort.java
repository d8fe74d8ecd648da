package io.qdrant.esgateway.adapter.in.http.violation;

/** The HTTP adapter holding a backend's out-port. */
class InAdapterUsesAnOutPort {
    io.qdrant.esgateway.application.port.out.BackendObserver observer;
}
