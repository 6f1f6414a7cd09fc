package io.chainfeed.api;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.chainfeed.testsupport.ModuleBoundaries;
import org.junit.jupiter.api.Test;

/**
 * This service's main classes depend on schemas and platform only, checked on bytecode.
 */
class ModuleBoundariesTest {

    @Test
    void dependsOnNoOtherServiceAndNotOnDevstack() {
        ModuleBoundaries.assertServiceStaysInItsLane("io.chainfeed.api");
    }

    /**
     * The api's support layer (Elasticsearch and Kafka plumbing, problem details, server
     * tuning, health, the OpenAPI description, settings) serves the resource packages and
     * imports none of them, and its packages import each other without a circle: a change
     * in a resource cannot ripple into the plumbing every resource stands on. Checked on
     * bytecode (a fully qualified name or a class literal counts); Checkstyle's import
     * control says the same of import lines.
     */
    @Test
    void theSupportLayerImportsNoResourceAndHasNoCircle() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.chainfeed.api");
        noClasses().that()
            .resideInAPackage("io.chainfeed.api.support..")
            .should()
            .dependOnClassesThat(resideInAPackage("io.chainfeed.api..")
                .and(DescribedPredicate.not(resideInAPackage("io.chainfeed.api.support.."))))
            .because("support serves the resources and imports none of them (CONTRIBUTING: api packages)")
            .check(main);
        slices().matching("io.chainfeed.api.support.(*)..").should().beFreeOfCycles().check(main);
    }

    /**
     * No circle between the api's packages: the package import graph has no strongly
     * connected component of two or more packages (issue 41 found twelve packages in one
     * knot). Checked on bytecode.
     */
    @Test
    void theApiPackagesHaveNoCircle() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.chainfeed.api");
        slices().matching("io.chainfeed.api.(*)..").should().beFreeOfCycles().check(main);
    }

}
