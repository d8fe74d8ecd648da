package io.qdrant.esgateway.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.DataInputStream;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards against rules that pass vacuously: the class files (release 25) are really imported, every package a rule
 * names has classes, and the domain rule fails when applied to code that does use a framework.
 */
class RulesCanFailTest {
    private static final ClassFileImporter IMPORTER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS);

    @Test
    void classFilesAreJava25AndImported() throws Exception {
        try (InputStream in = io.qdrant.esgateway.domain.index.IndexName.class.getResourceAsStream("IndexName.class");
             DataInputStream data = new DataInputStream(in)) {
            data.readInt();
            data.readUnsignedShort();
            assertThat(data.readUnsignedShort()).as("class file major version").isEqualTo(69);
        }
        JavaClasses domain = IMPORTER.importPackages("io.qdrant.esgateway.domain");
        assertThat(domain).extracting(c -> c.getSimpleName()).contains("IndexName", "Mappings", "CatalogView");
    }

    @Test
    void everyPackageTheRulesNameHasClasses() {
        for (String pkg : List.of("io.qdrant.esgateway.domain", "io.qdrant.esgateway.application.port.in",
                "io.qdrant.esgateway.application.port.out", "io.qdrant.esgateway.application.service",
                "io.qdrant.esgateway.adapter.in.http", "io.qdrant.esgateway.adapter.out.catalog",
                "io.qdrant.esgateway.adapter.out.lucene", "io.qdrant.esgateway.bootstrap")) {
            assertThat(IMPORTER.importPackages(pkg)).as(pkg).isNotEmpty();
        }
    }

    @Test
    void theDomainRuleFailsOnCodeThatUsesAFramework() {
        JavaClasses bootstrap = IMPORTER.importPackages("io.qdrant.esgateway.bootstrap");
        assertThatThrownBy(() -> classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.qdrant.esgateway..", "java..").check(bootstrap))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.helidon");
    }

    @Test
    void theAdapterIsolationRuleSeesBootstrapsAdapterDependencies() {
        JavaClasses bootstrap = IMPORTER.importPackages("io.qdrant.esgateway.bootstrap");
        assertThatThrownBy(() -> noClasses().should().dependOnClassesThat()
                .resideInAPackage("io.qdrant.esgateway.adapter..").check(bootstrap))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.qdrant.esgateway.adapter.in.http.EsRestApi");
    }
}
