package io.qdrant.esgateway.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Adapters show bootstrap one small public factory each; their implementation classes stay package-private. */
@AnalyzeClasses(packages = "io.qdrant.esgateway.adapter", importOptions = ImportOption.DoNotIncludeTests.class)
class AdapterVisibilityTest {

    @ArchTest
    static final ArchRule adapter_implementations_are_package_private = classes()
            .that().resideInAPackage("io.qdrant.esgateway.adapter..")
            .and().areTopLevelClasses()
            .and().doNotHaveSimpleName("EsRestApi")
            .and().doNotHaveSimpleName("SqliteCatalogs")
            .and().doNotHaveSimpleName("RedisCatalogs")
            .and().doNotHaveSimpleName("LuceneStores")
            .and().doNotHaveSimpleName("QdrantStores")
            .and().doNotHaveSimpleName("package-info")
            .should().notHaveModifier(JavaModifier.PUBLIC)
            .because("bootstrap wires adapters through their factories, never through implementation classes");
}
