package io.qdrant.esgateway.domain.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.document.Versioning.VersionType;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class VersioningTest {
    private static final String INTERNAL = "internal versioning can not be used for optimistic concurrency control."
            + " Please use `if_seq_no` and `if_primary_term` instead";

    private static Condition versioned(long version, VersionType type) {
        return Condition.NONE.withVersion(version, type);
    }

    @Test
    void versionTypesAreReadAsElasticsearchNamesThem() {
        assertThat(VersionType.parse("external_gt")).isEqualTo(VersionType.EXTERNAL);
        assertThat(VersionType.parse("external_gte")).isEqualTo(VersionType.EXTERNAL_GTE);
        assertThat(VersionType.parse("internal")).isEqualTo(VersionType.INTERNAL);
        assertThatThrownBy(() -> VersionType.parse("EXTERNAL")).hasMessage("No version type match [EXTERNAL]");
        assertThatThrownBy(() -> VersionType.parse("force")).hasMessage("No version type match [force]");
    }

    @Test
    void theProblemsOfAnIndexOrDeleteComeInElasticsearchsOrder() {
        assertThat(versioned(5, VersionType.EXTERNAL).problems(false, true)).isEmpty();
        assertThat(versioned(0, VersionType.EXTERNAL).problems(false, true)).isEmpty();
        assertThat(Condition.NONE.problems(true, true)).isEmpty();
        assertThat(versioned(Versioning.MATCH_DELETED, VersionType.INTERNAL).problems(true, true)).isEmpty();
        assertThat(versioned(Versioning.MATCH_ANY, VersionType.EXTERNAL).problems(false, true))
                .containsExactly("illegal version value [-3] for version type [EXTERNAL]");
        assertThat(versioned(8, VersionType.INTERNAL).problems(false, true)).containsExactly(INTERNAL);
        assertThat(versioned(0, VersionType.INTERNAL).problems(false, true))
                .containsExactly("illegal version value [0] for version type [INTERNAL]", INTERNAL);
        assertThat(new Condition(OptionalLong.of(1), OptionalLong.of(1), -1, VersionType.EXTERNAL)
                .problems(false, true)).containsExactly("illegal version value [-1] for version type [EXTERNAL]",
                "compare and write operations can not use versioning");
        assertThat(versioned(9, VersionType.EXTERNAL).problems(true, true))
                .containsExactly("create operations only support internal versioning. use index instead");
        assertThat(versioned(3, VersionType.INTERNAL).problems(true, true))
                .containsExactly("create operations do not support explicit versions. use index instead");
        assertThat(new Condition(OptionalLong.of(1), OptionalLong.of(1)).problems(true, true))
                .containsExactly("create operations do not support compare and set. use index instead");
        assertThat(versioned(3, VersionType.EXTERNAL).problems(false, false))
                .containsExactly("an id must be provided if version type or value are set");
    }
}
