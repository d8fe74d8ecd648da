package io.qdrant.esgateway.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.DataInputStream;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards against rules that pass vacuously: the class files (release 25) are really imported, every package a rule
 * names has classes, and each rule field of {@link HexagonalArchitectureTest} and {@link AdapterVisibilityTest} — the
 * very fields the rule run checks — fails on a class that breaks it. The breaking classes live in this module's test
 * sources ({@code ..violation} packages), which the rule run does not import.
 */
class RulesCanFailTest {
    private static final String BASE = "io.qdrant.esgateway";
    private static final ClassFileImporter IMPORTER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS);
    /**
     * Every class of the gateway with the violation classes (test classes) among them: rules that look at who
     * depends on a class (the onion's layers) see a violation only when its target is imported too.
     */
    private static final JavaClasses VIOLATIONS = new ClassFileImporter().importPackages(BASE);

    @Test
    void classFilesAreJava25AndImported() throws Exception {
        try (InputStream in = io.qdrant.esgateway.domain.index.IndexName.class.getResourceAsStream("IndexName.class");
             DataInputStream data = new DataInputStream(in)) {
            data.readInt();
            data.readUnsignedShort();
            assertThat(data.readUnsignedShort()).as("class file major version").isEqualTo(69);
        }
        JavaClasses domain = IMPORTER.importPackages(BASE + ".domain");
        assertThat(domain).extracting(c -> c.getSimpleName()).contains("IndexName", "Mappings", "CatalogView");
        assertThat(domain).extracting(c -> c.getSimpleName()).doesNotContain("DomainUsesAFramework");
    }

    @Test
    void everyPackageTheRulesNameHasClasses() {
        for (String pkg : List.of(BASE + ".domain", BASE + ".application.port.in", BASE + ".application.port.out",
                BASE + ".application.service", BASE + ".adapter.in.http", BASE + ".adapter.out.catalog",
                BASE + ".adapter.out.lucene", BASE + ".adapter.out.qdrant", BASE + ".bootstrap")) {
            assertThat(IMPORTER.importPackages(pkg)).as(pkg).isNotEmpty();
        }
    }

    @Test
    void theDomainRulesFailOnADomainThatUsesAFrameworkOrTheApplication() {
        fails(HexagonalArchitectureTest.the_domain_depends_only_on_itself_and_the_jdk, "DomainUsesAFramework",
                "org.apache.lucene.util.BytesRef");
        fails(HexagonalArchitectureTest.the_domain_depends_only_on_itself_and_the_jdk, "DomainKnowsTheApplication",
                "SearchOperations");
        fails(HexagonalArchitectureTest.no_framework_types_in_the_domain_or_the_application, "DomainUsesAFramework",
                "org.apache.lucene.util.BytesRef");
    }

    @Test
    void theCycleRuleFailsOnTwoDomainPackagesThatUseEachOther() {
        fails(HexagonalArchitectureTest.the_domain_packages_have_no_cycles, "Cycle detected", "CycleA", "CycleB");
    }

    @Test
    void theClockRuleFailsOnACallAndOnAMethodReference() {
        fails(HexagonalArchitectureTest.the_domain_does_not_read_the_clock, "DomainReadsTheClock.now()",
                "System.currentTimeMillis()");
        fails(HexagonalArchitectureTest.the_domain_does_not_read_the_clock, "DomainReadsTheClockByReference.clock()",
                "System.currentTimeMillis()");
    }

    @Test
    void theApplicationRulesFailOnAFrameworkAndOnAnAdapter() {
        fails(HexagonalArchitectureTest.the_application_depends_only_on_the_domain_and_the_jdk,
                "ApplicationUsesAFramework", "org.apache.lucene.util.BytesRef");
        fails(HexagonalArchitectureTest.no_framework_types_in_the_domain_or_the_application,
                "ApplicationUsesAFramework", "org.apache.lucene.util.BytesRef");
        fails(HexagonalArchitectureTest.only_bootstrap_depends_on_adapters, "ApplicationKnowsAnAdapter",
                "QdrantStores");
    }

    @Test
    void theOnionRuleFailsOnAnInwardRingThatLooksOutAndOnAdaptersThatKnowEachOther() {
        fails(HexagonalArchitectureTest.the_rings_point_inwards, "DomainKnowsTheApplication", "SearchOperations");
        fails(HexagonalArchitectureTest.the_rings_point_inwards, "AdapterKnowsAnotherAdapter", "QdrantStores");
    }

    @Test
    void thePortRulesFailOnPortsThatKnowEachOther() {
        fails(HexagonalArchitectureTest.in_ports_and_out_ports_do_not_know_each_other, "InPortKnowsAnOutPort",
                "Catalog");
        fails(HexagonalArchitectureTest.out_ports_do_not_know_in_ports, "OutPortKnowsAnInPort", "SearchOperations");
    }

    @Test
    void theAdapterRulesFailOnOutPortsServicesBootstrapPublicImplementationsAndInternalsUsedOutside() {
        fails(HexagonalArchitectureTest.the_in_adapter_does_not_use_out_ports, "InAdapterUsesAnOutPort",
                "BackendObserver");
        fails(HexagonalArchitectureTest.services_are_reached_through_ports_only, "InAdapterKnowsAService",
                "SearchService");
        fails(HexagonalArchitectureTest.nothing_depends_on_bootstrap, "DomainKnowsBootstrap", "bootstrap.Main");
        fails(AdapterVisibilityTest.adapter_implementations_are_package_private, "PublicImplementation", "PUBLIC");
        fails(AdapterVisibilityTest.adapter_internals_are_used_only_inside_their_adapter,
                "BootstrapUsesAnAdapterInternal", "QueryTranslator");
    }

    /** {@code rule} fails on the violation classes, naming each of {@code expected} (the culprit and its target). */
    private static void fails(ArchRule rule, String... expected) {
        assertThatThrownBy(() -> rule.check(VIOLATIONS))
                .isInstanceOf(AssertionError.class)
                .message().contains(expected);
    }
}
