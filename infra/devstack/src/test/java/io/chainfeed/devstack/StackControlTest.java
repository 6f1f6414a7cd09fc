package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StackControl}: the request line, and a round trip over the Unix domain socket
 * from the {@code ./chainfeed restart} client to a launcher (here one without services,
 * so the answers are errors; {@code StackIT} restarts a real child process this way).
 */
class StackControlTest {

    @TempDir
    Path run;

    @Test
    void refusesUnknownRequestsAndServices() {
        Stack stack = Stack.fromArgs("--no-services");
        assertThat(StackControl.handle(stack, "reboot everything")).startsWith("error unknown request");
        assertThat(StackControl.handle(stack, null)).startsWith("error unknown request");
        assertThat(StackControl.handle(stack, "restart nosuch"))
            .isEqualTo("error no service named 'nosuch'; the" + " parts are []");
        assertThat(StackControl.handle(stack, "status now")).startsWith("error unknown request");
    }

    @Test
    void theClientGetsTheLaunchersAnswerOverTheSocket() throws Exception {
        Stack stack = Stack.fromArgs("--no-services");
        try (StackControl control = StackControl.listen(run, stack)) {
            assertThat(Files.getPosixFilePermissions(run.resolve(StackControl.SOCKET)))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            assertThat(restart("nosuch")).startsWith("chainfeed restart: no service named 'nosuch'");
        }
        assertThat(run.resolve(StackControl.SOCKET)).doesNotExist();
    }

    @Test
    void theClientSaysWhenNoLauncherRuns() throws Exception {
        assertThat(restart("streams")).contains("no running stack at");
    }

    /**
     * Runs the {@code ./chainfeed restart SERVICE} client against the run dir; expects
     * exit code 1.
     */
    private String restart(String service) throws Exception {
        StackControl.Client client = new StackControl.Client();
        client.service = service;
        client.runDir = run;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        client.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(client.call()).isEqualTo(1);
        return err.toString(StandardCharsets.UTF_8);
    }

}
