package io.qdrant.esgateway.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.onionArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The dependency rules of DESIGN.md §2, written as sentences. Maven module edges already forbid the coarse arrows;
 * these rules also guard what a module edge cannot: framework types inside the core, ports, and adapter visibility.
 */
@AnalyzeClasses(packages = "io.qdrant.esgateway", importOptions = ImportOption.DoNotIncludeTests.class)
class HexagonalArchitectureTest {
    static final String BASE = "io.qdrant.esgateway";
    static final String DOMAIN = BASE + ".domain..";
    static final String APPLICATION = BASE + ".application..";
    static final String ADAPTERS = BASE + ".adapter..";
    static final String BOOTSTRAP = BASE + ".bootstrap..";
    static final String[] FRAMEWORKS = {"io.helidon..", "com.fasterxml.jackson..", "org.jooq..", "redis.clients..",
        "org.apache.lucene..", "java.net.http..", "io.micrometer..", "org.sqlite..", "java.sql.."};

    @ArchTest
    static final ArchRule the_domain_depends_only_on_itself_and_the_jdk = classes()
            .that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage(DOMAIN, "java..")
            .because("the model must stay framework-free");

    @ArchTest
    static final ArchRule the_domain_packages_have_no_cycles = slices()
            .matching(BASE + ".domain.(**)")
            .should().beFreeOfCycles()
            .because("each domain package can be read (and tested) knowing only the packages below it");

    @ArchTest
    static final ArchRule the_domain_does_not_read_the_clock = noClasses()
            .that().resideInAPackage(DOMAIN)
            .should().accessTargetWhere(readsTheClock())
            .orShould().dependOnClassesThat().belongToAnyOf(java.time.Clock.class, java.time.InstantSource.class)
            .because("one request reads one clock, injected: the same \"now\" in its query, sort and aggregations");

    @ArchTest
    static final ArchRule the_application_depends_only_on_the_domain_and_the_jdk = classes()
            .that().resideInAPackage(APPLICATION)
            .should().onlyDependOnClassesThat().resideInAnyPackage(APPLICATION, DOMAIN, "java..")
            .because("use cases and ports know no technology");

    @ArchTest
    static final ArchRule no_framework_types_in_the_domain_or_the_application = noClasses()
            .that().resideInAnyPackage(DOMAIN, APPLICATION)
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS);

    @ArchTest
    static final ArchRule the_rings_point_inwards = onionArchitecture()
            .domainModels(DOMAIN)
            .applicationServices(APPLICATION)
            .adapter("http", BASE + ".adapter.in.http..")
            .adapter("catalog", BASE + ".adapter.out.catalog..")
            .adapter("cache", BASE + ".adapter.out.cache..")
            .adapter("lucene", BASE + ".adapter.out.lucene..")
            .adapter("qdrant", BASE + ".adapter.out.qdrant..")
            .withOptionalLayers(true)
            // bootstrap is the composition root: outside the rings, it may construct every one of them
            .ignoreDependency(JavaClass.Predicates.resideInAPackage(BOOTSTRAP), DescribedPredicate.alwaysTrue());

    @ArchTest
    static final ArchRule only_bootstrap_depends_on_adapters = noClasses()
            .that().resideOutsideOfPackages(ADAPTERS, BOOTSTRAP)
            .should().dependOnClassesThat().resideInAPackage(ADAPTERS);

    @ArchTest
    static final ArchRule nothing_depends_on_bootstrap = noClasses()
            .that().resideOutsideOfPackage(BOOTSTRAP)
            .should().dependOnClassesThat().resideInAPackage(BOOTSTRAP);

    @ArchTest
    static final ArchRule in_ports_and_out_ports_do_not_know_each_other = noClasses()
            .that().resideInAPackage(BASE + ".application.port.in..")
            .should().dependOnClassesThat().resideInAPackage(BASE + ".application.port.out..");

    @ArchTest
    static final ArchRule out_ports_do_not_know_in_ports = noClasses()
            .that().resideInAPackage(BASE + ".application.port.out..")
            .should().dependOnClassesThat().resideInAPackage(BASE + ".application.port.in..");

    @ArchTest
    static final ArchRule the_in_adapter_does_not_use_out_ports = noClasses()
            .that().resideInAPackage(BASE + ".adapter.in..")
            .should().dependOnClassesThat().resideInAPackage(BASE + ".application.port.out..")
            .because("a driving adapter calls use cases; what backends report reaches it through bootstrap");

    @ArchTest
    static final ArchRule services_are_reached_through_ports_only = noClasses()
            .that().resideInAPackage(ADAPTERS)
            .should().dependOnClassesThat().resideInAPackage(BASE + ".application.service..");

    /** A call (or method reference) that reads the wall or monotonic clock: System's, or a java.time "now". */
    static DescribedPredicate<JavaAccess<?>> readsTheClock() {
        return DescribedPredicate.describe("the clock", access -> {
            String owner = access.getTargetOwner().getName();
            String name = access.getName();
            return owner.equals(System.class.getName()) && (name.equals("currentTimeMillis") || name.equals("nanoTime"))
                    || owner.startsWith("java.time.") && name.equals("now");
        });
    }
}
