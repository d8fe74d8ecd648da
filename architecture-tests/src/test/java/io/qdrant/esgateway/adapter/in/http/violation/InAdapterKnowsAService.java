package io.qdrant.esgateway.adapter.in.http.violation;

/** The HTTP adapter holding a service instead of its in-port. */
class InAdapterKnowsAService {
    io.qdrant.esgateway.application.service.SearchService search;
}
