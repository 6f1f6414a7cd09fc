package io.chainfeed.api;

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

}
