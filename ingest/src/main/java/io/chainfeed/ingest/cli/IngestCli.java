package io.chainfeed.ingest.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.chainfeed.ingest.IngestService;
import io.chainfeed.ingest.TermJson;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.NewsDecider;
import io.chainfeed.ingest.decide.NewsReader;
import io.chainfeed.ingest.decide.SignalDecider;
import io.chainfeed.ingest.decide.TextDecider;
import io.chainfeed.ingest.fetch.SafeFetcher;
import io.chainfeed.ingest.publish.IngestMeters;
import io.chainfeed.ingest.publish.KafkaClients;
import io.chainfeed.ingest.publish.PublishException;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.ingest.signal.SignalError;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalInput;
import io.chainfeed.ingest.signal.SignalReader;
import io.chainfeed.ingest.signal.SignalValidator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The ingest command line.
 *
 * <pre>
 * java -jar chainfeed-ingest-exec.jar page FILE|URL [--html] [--dry-run] [--bootstrap-servers H:P]
 * java -jar chainfeed-ingest-exec.jar corpus DIR [--dry-run] [--bootstrap-servers H:P]
 * java -jar chainfeed-ingest-exec.jar signals FILE.jsonl|FILE.csv [--dry-run] [--bootstrap-servers H:P]
 * </pre>
 *
 * Exit codes: 0 done, 1 refused input (unparseable page, bad corpus, refused URL, any
 * invalid signal: the valid ones of the file are still published), 2 usage error, 3 Kafka
 * did not acknowledge.
 */
@Command(name = "chainfeed-ingest", mixinStandardHelpOptions = true, version = "chainfeed-ingest 0.1",
        description = "Parse glossary pages and corpora and publish them to Kafka.",
        subcommands = { IngestCli.PageCommand.class, IngestCli.CorpusCommand.class, IngestCli.SignalsCommand.class,
                TrainDeciderCommand.class })
public final class IngestCli {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * The counters of one command: the CLI serves no metrics, so they go to a registry of
     * their own that nothing reads.
     * @return meters over a new {@link SimpleMeterRegistry}
     */
    static IngestMeters unservedMeters() {
        return new IngestMeters(new SimpleMeterRegistry());
    }

    /**
     * Runs the CLI.
     * @param args the arguments, starting with the subcommand
     * @return the exit code
     */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new IngestCli());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + e.getMessage());
            return e instanceof PublishException ? 3 : 1;
        });
        return cl.execute(args);
    }

    /**
     * A subcommand: the options every subcommand shares and the services they run with.
     */
    abstract static class IngestCommand implements Callable<Integer> {

        @Option(names = "--bootstrap-servers", defaultValue = "${env:CHAINFEED_KAFKA_BOOTSTRAP:-127.0.0.1:19092}",
                description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE}; env CHAINFEED_KAFKA_BOOTSTRAP).")
        String bootstrapServers;

        @Option(names = "--dry-run", description = "Parse and print, publish nothing.")
        boolean dryRun;

        /** This subcommand, for its output streams. */
        @Spec
        CommandSpec command;

        /**
         * Where the subcommand prints its results (standard output unless a test
         * redirects it).
         */
        PrintWriter out() {
            return command.commandLine().getOut();
        }

        /**
         * Where the subcommand reports refused input (standard error unless a test
         * redirects it).
         */
        PrintWriter err() {
            return command.commandLine().getErr();
        }

        /** A service without publisher: parses only. */
        IngestService dryRunService(Corpus corpus) {
            return new IngestService(corpus, null);
        }

        /**
         * Opens the Kafka clients, runs the work with a publishing service, closes the
         * clients.
         */
        <T> T withPublishingService(Corpus corpus, Function<IngestService, T> work) {
            try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrapServers, "chainfeed-cli");
                    KafkaConsumer<String, byte[]> ledger = KafkaClients.ledgerConsumer(bootstrapServers)) {
                TermPublisher publisher = new TermPublisher(producer, ledger, Clock.systemUTC(), unservedMeters());
                return work.apply(new IngestService(corpus, publisher));
            }
        }

    }

    @Command(name = "page", description = "Parse one glossary page (a file or an http(s) URL) and publish its term.")
    static final class PageCommand extends IngestCommand {

        @Parameters(paramLabel = "FILE|URL", description = "A page in the scraped text format, or its HTML.")
        String location;

        @Option(names = "--html", description = "Treat the input as HTML (default: by file name or Content-Type).")
        boolean html;

        @Option(names = "--allow-private",
                description = "Allow fetching from loopback or private addresses (local use).")
        boolean allowPrivate;

        @Option(names = "--source-url", description = "Public URL of the page, when it is read from a file; "
                + "required to publish a term the corpus does not know, so the read can be checked.")
        String sourceUrlOption;

        @Override
        public Integer call() throws Exception {
            String body;
            String sourceUrl = sourceUrlOption;
            boolean isHtml = html;
            if (location.startsWith("http://") || location.startsWith("https://")) {
                SafeFetcher.Page page;
                try (SafeFetcher fetcher = new SafeFetcher(allowPrivate)) {
                    page = fetcher.fetch(URI.create(location));
                }
                body = page.body();
                sourceUrl = page.uri().toString();
                isHtml |= page.contentType().contains("html");
            }
            else {
                Path file = Path.of(location);
                body = Files.readString(file, StandardCharsets.UTF_8);
                String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
                isHtml |= name.endsWith(".html") || name.endsWith(".htm");
            }
            Corpus corpus = Corpus.loadBundled();
            PrintWriter out = out();
            if (dryRun) {
                var r = dryRunService(corpus).ingestPage(body, isHtml, sourceUrl, true);
                out.println(JSON.writeValueAsString(TermJson.of(r.term())));
                return 0;
            }
            String page = body;
            String source = sourceUrl;
            boolean asHtml = isHtml;
            var r = withPublishingService(corpus, s -> s.ingestPage(page, asHtml, source, false));
            out.printf("%s %s version %d%n",
                    r.result().outcome() == TermPublisher.Outcome.PUBLISHED ? "published" : "unchanged",
                    r.term().slug(), r.result().version());
            return 0;
        }

    }

    @Command(name = "corpus", description = "Publish a corpus directory (layers.yaml, companies.yaml, terms/*.md).")
    static final class CorpusCommand extends IngestCommand {

        @Parameters(paramLabel = "DIR", description = "Corpus directory.")
        Path dir;

        @Override
        public Integer call() {
            Corpus corpus = Corpus.load(dir);
            PrintWriter out = out();
            if (dryRun) {
                out.printf("corpus %s: %d layers, %d companies, %d terms (dry run, nothing published)%n", dir,
                        corpus.layers().size(), corpus.companies().size(), corpus.terms().size());
                return 0;
            }
            IngestService.CorpusResult r = withPublishingService(corpus, s -> s.loadCorpus(corpus));
            out.printf("corpus %s: %d reference records written, %d of %d terms published, the rest unchanged%n", dir,
                    r.referenceRecords(), r.published(), r.terms().size());
            return 0;
        }

    }

    @Command(name = "signals", description = "Validate and publish constraint signals from a JSON Lines (.jsonl, "
            + ".ndjson) or CSV (.csv, with a header row) file; invalid lines are reported, valid ones published. "
            + "Layers, direction and magnitude left out are decided from the text; lines not about a supply "
            + "constraint are skipped (to chainfeed.signals-skipped.v1), with the reason.")
    static final class SignalsCommand extends IngestCommand {

        /** The service's default hold threshold ({@code chainfeed.ingest.hold-below}). */
        static final double HOLD_BELOW = 0.6;

        @Parameters(paramLabel = "FILE", description = "Signals, one a line (JSON Lines) or a CSV with a header row.")
        Path file;

        @Option(names = "--reader", defaultValue = "news-reader",
                description = "Who decides missing values from the text: news-reader (the learned reader with the "
                        + "rules) or rules (default: ${DEFAULT-VALUE}; docs/decisions.md).")
        String reader;

        @Option(names = "--format", description = "jsonl or csv (default: by file name; .csv is CSV, else JSON Lines).")
        String format;

        @Override
        public Integer call() throws Exception {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            boolean csv = format != null ? format.equalsIgnoreCase("csv")
                    : file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv");
            List<SignalInput> inputs = csv ? SignalReader.csv(text) : SignalReader.jsonLines(text);
            if (!reader.equals("news-reader") && !reader.equals("rules")) {
                throw new CommandLine.ParameterException(command.commandLine(),
                        "--reader is '" + reader + "': use news-reader or rules");
            }
            Corpus corpus = Corpus.loadBundled();
            SignalDecider rules = SignalDecider.of(corpus);
            TextDecider decider = reader.equals("rules") ? rules : new NewsDecider(rules, NewsReader.bundled());
            SignalValidator validator = new SignalValidator(corpus.layers(), decider, HOLD_BELOW);
            PrintWriter out = out();
            PrintWriter err = err();
            SignalIngest.BatchResult r;
            if (dryRun) {
                r = new SignalIngest(validator, null, Clock.systemUTC(), unservedMeters()).ingest(inputs, true);
            }
            else {
                try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrapServers,
                        "chainfeed-cli")) {
                    r = new SignalIngest(validator, producer, Clock.systemUTC(), unservedMeters()).ingest(inputs,
                            false);
                }
            }
            for (SignalError e : r.rejected()) {
                err.printf("%s:%d: %s: %s%n", file, e.line(), e.field(), e.reason());
            }
            for (SignalIngest.Accepted a : r.accepted()) {
                boolean held = a.signal().getDecision() != null && a.signal().getDecision().getHeld();
                out.printf("%s line %d: %s %s%s%n", r.published() ? "published" : "valid", a.line(), a.signal().getId(),
                        a.readId(), held ? " (held for review)" : "");
            }
            for (SignalIngest.Skipped k : r.skipped()) {
                out.printf("skipped line %d: %s (%s)%n", k.line(), k.signal().getId(), k.reason());
            }
            long bad = r.rejected().stream().mapToInt(SignalError::line).distinct().count();
            out.printf("%s: %d signals %s, %d skipped, %d refused%n", file, r.accepted().size(),
                    r.published() ? "published" : "valid (dry run, nothing published)", r.skipped().size(), bad);
            return bad == 0 ? 0 : 1;
        }

    }

}
