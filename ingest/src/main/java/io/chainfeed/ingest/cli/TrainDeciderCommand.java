package io.chainfeed.ingest.cli;

import io.chainfeed.embeddings.SentenceEmbedder;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.NewsReader;
import io.chainfeed.ingest.decide.ReaderTraining;
import io.chainfeed.ingest.decide.SignalDecider;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code train-decider}: trains the learned news reader by the protocol of
 * docs/decisions.md and writes it where the ingest service loads it from. Needs no Kafka.
 * Exit code 0 when a reader was trained and written, 1 when the rules won the
 * cross-validation (nothing written).
 */
@Command(name = "train-decider", description = "Cross-validate the news reader's variants on the labelled training "
        + "sets, keep the best, score it on the held-out rounds and write it (run from the project's root).")
final class TrainDeciderCommand implements Callable<Integer> {

    @Option(names = "--sets", defaultValue = "ingest/src/test/resources/decide",
            description = "Directory of the labelled sets (default: ${DEFAULT-VALUE}).")
    Path sets;

    @Option(names = "--out", defaultValue = "ingest/src/main/resources/io/chainfeed/ingest/decide",
            description = "Where the reader's files are written (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--cv-only", description = "Cross-validate and report the choice only: no held-out round is "
            + "read and nothing is written.")
    boolean crossValidationOnly;

    @Override
    public Integer call() throws Exception {
        PrintStream log = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        ReaderTraining training = new ReaderTraining(SignalDecider.of(Corpus.loadBundled()), SentenceEmbedder.shared());
        NewsReader reader = training.run(sets, out, log, crossValidationOnly);
        if (crossValidationOnly) {
            return 0;
        }
        if (reader == null) {
            log.println("the rules won the cross-validation: no reader written");
            return 1;
        }
        log.println("wrote " + reader.version() + " to " + out);
        return 0;
    }

}
