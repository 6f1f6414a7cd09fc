package io.chainfeed.devstack.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keys CLI's usage errors and unreachable cases, which need no running api. */
class KeysCliTest {

    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeysCli.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void anUnknownKindIsAUsageErrorNamingTheKinds() {
        Result r = run("create", "--kind", "bogus", "--label", "x", "--admin-key-file", "/nonexistent");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--kind").contains("PARTNER").contains("READER");
    }

    @Test
    void aMissingAdminKeyFileIsNamed() {
        Result r = run("list", "--admin-key-file", dir.resolve("nope").toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("cannot read the admin key file").contains("nope");
    }

    @Test
    void anUnreachableApiIsSaidPlainly() throws Exception {
        Path keyFile = Files.writeString(dir.resolve("admin-key"), "some-admin-key");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Result r = run("list", "--admin-key-file", keyFile.toString(), "--api", "http://127.0.0.1:" + port);
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("cannot reach the api").contains("--api");
    }

}
