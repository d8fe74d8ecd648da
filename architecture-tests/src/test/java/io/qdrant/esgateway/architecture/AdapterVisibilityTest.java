package io.qdrant.esgateway.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.List;

/**
 * Adapters show bootstrap one small public factory each. An adapter's root package holds its factory and
 * package-private classes; its sub-packages are internal: their public types exist for the adapter's own packages and
 * are never used from outside the adapter.
 */
@AnalyzeClasses(packages = "io.qdrant.esgateway", importOptions = ImportOption.DoNotIncludeTests.class)
class AdapterVisibilityTest {
    static final String BASE = "io.qdrant.esgateway.adapter";
    /** Each adapter's root package: its factory's package. */
    static final List<String> ROOTS = List.of(BASE + ".in.http", BASE + ".out.catalog.sqlite",
            BASE + ".out.catalog.redis", BASE + ".out.lucene", BASE + ".out.qdrant", BASE + ".out.cache.redis");

    @ArchTest
    static final ArchRule adapter_implementations_are_package_private = classes()
            .that().resideInAnyPackage(ROOTS.toArray(String[]::new))
            .and().areTopLevelClasses()
            .and().doNotHaveSimpleName("EsRestApi")
            .and().doNotHaveSimpleName("SqliteCatalogs")
            .and().doNotHaveSimpleName("RedisResponseCaches")
            .and().doNotHaveSimpleName("RedisCatalogs")
            .and().doNotHaveSimpleName("LuceneStores")
            .and().doNotHaveSimpleName("QdrantStores")
            .and().doNotHaveSimpleName("package-info")
            .should().notHaveModifier(JavaModifier.PUBLIC)
            .because("bootstrap wires adapters through their factories, never through implementation classes");

    @ArchTest
    static final ArchRule adapter_internals_are_used_only_inside_their_adapter = CompositeArchRule.of(
            ROOTS.stream().map(AdapterVisibilityTest::internalsStayInside).toList());

    /** Nothing outside the adapter rooted at {@code root} uses a class of one of its sub-packages. */
    private static ArchRule internalsStayInside(String root) {
        DescribedPredicate<JavaClass> internal = JavaClass.Predicates.resideInAPackage(root + "..")
                .and(DescribedPredicate.not(JavaClass.Predicates.resideInAPackage(root)))
                .as("internal to " + root);
        return noClasses()
                .that().resideOutsideOfPackage(root + "..")
                .should().dependOnClassesThat(internal)
                .because("an adapter's sub-packages are its internals: the rest of the gateway sees its factory only");
    }
}
