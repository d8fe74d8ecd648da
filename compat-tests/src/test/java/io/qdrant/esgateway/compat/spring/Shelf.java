package io.qdrant.esgateway.compat.spring;

import org.springframework.data.annotation.Id;
import org.springframework.data.elasticsearch.annotations.Document;
import org.springframework.data.elasticsearch.annotations.Field;
import org.springframework.data.elasticsearch.annotations.FieldType;
import org.springframework.data.elasticsearch.core.query.SeqNoPrimaryTerm;

/**
 * An entity with optimistic locking by sequence number ({@link SeqNoPrimaryTerm}, Spring Data's alternative to
 * {@code @Version}): saves send {@code if_seq_no}/{@code if_primary_term}, reads ask for {@code seq_no_primary_term}.
 */
@Document(indexName = "spring-shelves")
public class Shelf {
    @Id
    private String id;
    @Field(type = FieldType.Keyword)
    private String room;
    @Field(type = FieldType.Integer)
    private Integer capacity;
    private SeqNoPrimaryTerm seqNoPrimaryTerm;

    public Shelf() {
    }

    Shelf(String id, String room, int capacity) {
        this.id = id;
        this.room = room;
        this.capacity = capacity;
    }

    public String getId() {
        return id;
    }

    public void setCapacity(Integer capacity) {
        this.capacity = capacity;
    }

    public SeqNoPrimaryTerm getSeqNoPrimaryTerm() {
        return seqNoPrimaryTerm;
    }

    public void setSeqNoPrimaryTerm(SeqNoPrimaryTerm seqNoPrimaryTerm) {
        this.seqNoPrimaryTerm = seqNoPrimaryTerm;
    }

    @Override
    public String toString() {
        return id + "{" + room + " " + capacity + " " + (seqNoPrimaryTerm == null ? "no seq_no"
                : "seq_no " + seqNoPrimaryTerm.sequenceNumber() + " term " + seqNoPrimaryTerm.primaryTerm()) + "}";
    }
}
