package io.chainfeed.devstack.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./chainfeed keys ...}: issues, lists and revokes API keys through the api's
 * admin endpoints, with the admin key the running stack wrote to its run dir (or
 * {@code --admin-key-file}, or the environment variable {@code CHAINFEED_ADMIN_KEY}).
 *
 * <pre>
 * ./chainfeed keys create --kind partner --origin http://localhost:8090 --label demo [--rate 600]
 * ./chainfeed keys list
 * ./chainfeed keys revoke ID
 * </pre> Prints the api's JSON answer. Exit codes: 0 done, 1 refused by the api, 2 usage
 * error, 3 the api or the admin key could not be reached.
 */
@Command(name = "chainfeed keys", mixinStandardHelpOptions = true,
        description = "Issues, lists and revokes API keys (READER, or publishable PARTNER keys for the widgets).",
        subcommands = { KeysCli.Create.class, KeysCli.ListKeys.class, KeysCli.Revoke.class })
public final class KeysCli implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where the api is and which admin key to use. */
    static final class Connection {

        @Option(names = "--api", description = "The api's base URL (default: ${DEFAULT-VALUE}).",
                defaultValue = "${env:CHAINFEED_API_URL:-http://localhost:8080}")
        URI api;

        @Option(names = "--run-dir",
                description = "Run dir of the stack, holding admin-key (default: ${DEFAULT-VALUE}).")
        Path runDir = Path.of(".run");

        @Option(names = "--admin-key-file", description = "File holding the admin key (default: <run dir>/admin-key).")
        Path adminKeyFile;

        /** The subcommand this mixin is part of, for its output streams. */
        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        AdminKeysClient client() throws IOException {
            String key = System.getenv("CHAINFEED_ADMIN_KEY");
            if (adminKeyFile != null) {
                key = Files.readString(adminKeyFile).strip();
            }
            else if (key == null || key.isBlank()) {
                key = AdminKey.read(runDir);
            }
            return new AdminKeysClient(api, key);
        }

        /**
         * Calls the api with this connection's client and prints its JSON answer, or what
         * went wrong.
         * @return the exit code: 0 done, 1 refused by the api, 3 the api or the admin key
         * not reached
         */
        int run(Call call) throws InterruptedException {
            PrintWriter out = command.commandLine().getOut();
            PrintWriter err = command.commandLine().getErr();
            try {
                out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(call.run(client())));
                return 0;
            }
            catch (AdminKeysClient.Refused e) {
                err.println("chainfeed keys: " + e.getMessage());
                return 1;
            }
            catch (NoSuchFileException | AccessDeniedException e) {
                err.println("chainfeed keys: cannot read the admin key file " + e.getFile()
                        + " (is the stack running from this directory? else give --admin-key-file or CHAINFEED_ADMIN_KEY)");
                return 3;
            }
            catch (ConnectException | HttpConnectTimeoutException e) {
                err.println("chainfeed keys: cannot reach the api (" + e.getClass().getSimpleName()
                        + "); is it running? give its URL with --api");
                return 3;
            }
            catch (IOException e) {
                err.println("chainfeed keys: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()));
                return 3;
            }
            finally {
                out.flush();
                err.flush();
            }
        }

    }

    /** One call of the api's key administration. */
    private interface Call {

        JsonNode run(AdminKeysClient client) throws IOException, InterruptedException;

    }

    /** The kinds of key, as the api names them. */
    enum Kind {

        PARTNER, READER

    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Issue a key; its token is shown only now.")
    static final class Create implements Callable<Integer> {

        @Mixin
        Connection connection = new Connection();

        @Option(names = "--kind", required = true,
                description = "partner (publishable, for widgets) or reader (webhook subscriptions); any case.")
        Kind kind;

        @Option(names = "--label", required = true, description = "Who or what the key is for.")
        String label;

        @Option(names = "--origin", description = "An origin allowed to use the key from a browser, e.g. "
                + "https://partner.example (repeat for more; at least one for partner keys).")
        List<String> origins = List.of();

        @Option(names = "--rate",
                description = "Requests a minute (default: the api's, 600 for a reader key, 120000 for a partner key).")
        Integer rate;

        @Override
        public Integer call() throws Exception {
            return connection.run(client -> client.create(kind.name(), label, origins, rate));
        }

    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the keys that are not revoked.")
    static final class ListKeys implements Callable<Integer> {

        @Mixin
        Connection connection = new Connection();

        @Override
        public Integer call() throws Exception {
            return connection.run(AdminKeysClient::list);
        }

    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a key by its id.")
    static final class Revoke implements Callable<Integer> {

        @Mixin
        Connection connection = new Connection();

        @Parameters(paramLabel = "ID", description = "The key's id (12 characters, the part after cf_).")
        String id;

        @Override
        public Integer call() throws Exception {
            return connection.run(client -> {
                client.revoke(id);
                return JSON.createObjectNode().put("revoked", id);
            });
        }

    }

    /**
     * Runs the command with the given output streams (for embedding and tests).
     * @param out gets the api's JSON answer
     * @param err gets errors and usage
     * @param args {@code create|list|revoke} and their options
     * @return the exit code (0 done, 1 refused, 2 usage, 3 unreachable)
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new KeysCli());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setOut(out);
        cli.setErr(err);
        return cli.execute(args);
    }

    /**
     * @param args {@code create|list|revoke} and their options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

}
