package io.chainfeed.ingest;

import io.chainfeed.ingest.cli.IngestCli;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.platform.kafka.KafkaTopicsSettings;
import java.util.Set;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The ingest service (HTTP, default port 8081) and, with a first argument {@code page} or
 * {@code corpus} or {@code signals}, the ingest CLI (see {@link IngestCli}).
 */
@SpringBootApplication
@EnableConfigurationProperties({ IngestProperties.class, KafkaConnectionProperties.class, KafkaTopicsSettings.class })
public class IngestApplication {

    private static final Set<String> CLI_COMMANDS = Set.of("page", "corpus", "signals", "train-decider", "help",
            "--help", "-h");

    /**
     * @param args {@code page FILE|URL ...}, {@code corpus DIR ...},
     * {@code signals FILE ...}, {@code train-decider ...}, or Spring Boot arguments for
     * the service
     */
    public static void main(String[] args) {
        if (args.length > 0 && CLI_COMMANDS.contains(args[0])) {
            // The CLI prints its result on stdout; client INFO chatter (Kafka config
            // dumps) would bury it.
            ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
            System.exit(IngestCli.run(args));
        }
        SpringApplication.run(IngestApplication.class, args);
    }

}
