package io.chainfeed.devstack;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Stands in for a Spring Boot service in {@link StackIT}: serves
 * {@code GET /actuator/health} with status UP and {@code POST /api/v1/admin/keys} (under
 * an admin key whose hash it was given), writes its arguments to
 * {@code <project>/fake-out/<name>.args} and appends {@code <name>} to
 * {@code <project>/fake-out/stopped} on SIGTERM. It is run as
 * {@code <project>/<name>/target/chainfeed-<name>-
 * ...-exec.jar}, which gives both the name and the project dir.
 */
public final class FakeBootService {

    private FakeBootService() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String jar = System.getProperty("sun.java.command").split(" ")[0];
        String name = Path.of(jar).getFileName().toString().replaceFirst("^chainfeed-", "").replaceFirst("-.*$", "");
        Path dir = Path.of(jar).getParent().getParent().getParent().resolve("fake-out");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name + ".args"), String.join("\n", args));
        int port = Arrays.stream(args)
            .filter(a -> a.startsWith("--server.port="))
            .mapToInt(a -> Integer.parseInt(a.substring("--server.port=".length())))
            .findFirst()
            .orElseThrow();
        Thread.sleep(1000); // a (very) short boot
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 10);
        server.createContext("/actuator/health", exchange -> {
            byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        // The api's key administration, as the launcher uses it for the demo page: the
        // bearer must hash to one of
        // the configured admin key hashes; the request body is kept for the test.
        String hashes = Arrays.stream(args)
            .filter(a -> a.startsWith("--chainfeed.api.admin-key-hashes="))
            .map(a -> a.substring("--chainfeed.api.admin-key-hashes=".length()))
            .findFirst()
            .orElse("");
        server.createContext("/api/v1/admin/keys", exchange -> {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            boolean admin = auth != null && auth.startsWith("Bearer ") && !hashes.isEmpty()
                    && Arrays.asList(hashes.split(",")).contains(sha256(auth.substring(7)));
            byte[] request = exchange.getRequestBody().readAllBytes();
            Files.write(dir.resolve(name + ".keys-request"), request);
            byte[] body = "{\"id\":\"fakekeyid234\",\"token\":\"cf_fakekeyid234_demo\"}"
                .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(admin ? 201 : 401, admin ? body.length : -1);
            if (admin) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
        System.out.println("Started fake " + name + " on port " + port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            try {
                Files.writeString(dir.resolve("stopped"), name + "\n", StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }));
        Thread.currentThread().join();
    }

    /**
     * The JDK's own: this fake runs as a child JVM with the test classes and the JDK only
     * on its class path.
     */
    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
