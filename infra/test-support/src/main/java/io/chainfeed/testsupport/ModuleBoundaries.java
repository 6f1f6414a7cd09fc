package io.chainfeed.testsupport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The module boundaries of chainfeed, checked on compiled classes with ArchUnit: a
 * service (ingest, streams, api) depends on {@code io.chainfeed.schemas} and
 * {@code io.chainfeed.platform} only, never on the development stack
 * ({@code io.chainfeed.devstack}) or on another service. Checkstyle's import control
 * reads {@code import} lines; this reads bytecode, so a fully qualified name in the code,
 * a reflective class literal or a static import cannot slip past.
 */
public final class ModuleBoundaries {

    /** The service packages. */
    public static final List<String> SERVICES = List.of("io.chainfeed.ingest", "io.chainfeed.streams",
            "io.chainfeed.api");

    private ModuleBoundaries() {
    }

    /**
     * Asserts that the main classes of one service depend on no other service and not on
     * devstack.
     * @param servicePackage the service's root package, one of {@link #SERVICES}
     * @throws AssertionError listing every offending dependency (class, member and line)
     */
    public static void assertServiceStaysInItsLane(String servicePackage) {
        if (!SERVICES.contains(servicePackage)) {
            throw new IllegalArgumentException("not a service package: " + servicePackage);
        }
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(servicePackage);
        String[] forbidden = Stream
            .concat(Stream.of("io.chainfeed.devstack.."),
                    SERVICES.stream().filter(s -> !s.equals(servicePackage)).map(s -> s + ".."))
            .toArray(String[]::new);
        if (main.isEmpty()) {
            throw new AssertionError("no main classes of " + servicePackage + " found on the class path");
        }
        noClasses().that()
            .resideInAPackage(servicePackage + "..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(forbidden)
            .because("services import schemas and platform only (README: Modules)")
            .check(main);
    }

}
