package io.chainfeed.ingest;

import io.chainfeed.platform.KafkaHealthIndicator;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.feed.FeedPoller;
import io.chainfeed.ingest.feed.FeedSchedule;
import io.chainfeed.ingest.feed.FeedsEndpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.chainfeed.ingest.fetch.SafeFetcher;
import io.chainfeed.ingest.page.GlossaryPageParser;
import io.chainfeed.ingest.publish.KafkaClients;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.schemas.Topics;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the ingest service: corpus, parser, producer, publisher, and the corpus load at start. */
@Configuration(proxyBeanMethods = false)
class IngestConfiguration {
    private static final Logger log = LoggerFactory.getLogger(IngestConfiguration.class);

    @Bean
    Corpus corpus(IngestProperties props) {
        return props.corpusDir() == null || props.corpusDir().isBlank()
                ? Corpus.loadBundled() : Corpus.load(Path.of(props.corpusDir()));
    }

    @Bean
    GlossaryPageParser glossaryPageParser(Corpus corpus) {
        return new GlossaryPageParser(corpus.referenceData());
    }

    @Bean(destroyMethod = "close")
    KafkaProducer<String, byte[]> ingestProducer(@Value("${spring.kafka.bootstrap-servers}") String bootstrap) {
        return KafkaClients.producer(bootstrap, "chainfeed-ingest");
    }

    @Bean(destroyMethod = "close")
    KafkaConsumer<String, byte[]> ledgerConsumer(@Value("${spring.kafka.bootstrap-servers}") String bootstrap) {
        return KafkaClients.ledgerConsumer(bootstrap);
    }

    @Bean
    TermPublisher termPublisher(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> ledgerConsumer,
            @Value("${spring.kafka.bootstrap-servers}") String bootstrap,
            @Value("${chainfeed.kafka.create-topics:true}") boolean createTopics,
            @Value("${chainfeed.kafka.partitions:3}") int partitions,
            @Value("${chainfeed.kafka.replication-factor:1}") short replicationFactor) {
        if (createTopics) {
            TopicSetup.ensure(bootstrap, Topics.all(partitions), replicationFactor);
        }
        TermPublisher publisher = new TermPublisher(producer, ledgerConsumer, Clock.systemUTC());
        publisher.catchUp(Duration.ofSeconds(60));
        return publisher;
    }

    @Bean
    SignalIngest signalIngest(Corpus corpus, KafkaProducer<String, byte[]> producer) {
        return new SignalIngest(new SignalValidator(corpus.layers()), producer, Clock.systemUTC());
    }

    @Bean(destroyMethod = "close")
    SafeFetcher feedFetcher(IngestProperties props) {
        return new SafeFetcher(props.feedsAllowPrivate());
    }

    @Bean
    FeedPoller feedPoller(SafeFetcher feedFetcher, SignalIngest signalIngest, KafkaProducer<String, byte[]> producer,
            MeterRegistry meters) {
        return new FeedPoller(feedFetcher, signalIngest, producer, Clock.systemUTC(), meters);
    }

    @Bean
    FeedSchedule feedSchedule(IngestProperties props, FeedPoller feedPoller) {
        return new FeedSchedule(feedPoller, props.feeds(), props.feedInterval());
    }

    @Bean
    FeedsEndpoint feedsEndpoint(IngestProperties props, FeedPoller feedPoller) {
        return new FeedsEndpoint(feedPoller, props.feeds());
    }

    @Bean
    HashedKeys editorKeys(IngestProperties props) {
        return new HashedKeys("chainfeed.ingest.editor-key-hashes", props.editorKeyHashes());
    }

    @Bean("kafka")
    KafkaHealthIndicator kafkaHealthIndicator(@Value("${spring.kafka.bootstrap-servers}") String bootstrap) {
        return new KafkaHealthIndicator(bootstrap, Duration.ofSeconds(3));
    }

    @Bean
    IngestService ingestService(GlossaryPageParser parser, TermPublisher publisher, Corpus corpus) {
        return new IngestService(parser, publisher, corpus);
    }

    @Bean
    ApplicationRunner corpusLoader(IngestProperties props, IngestService service, Corpus corpus) {
        return args -> {
            if (!props.loadCorpus()) {
                return;
            }
            long start = System.nanoTime();
            IngestService.CorpusResult r = service.loadCorpus(corpus);
            log.info("corpus loaded in {} ms: {} reference records and {} of {} terms published, {} changed by users"
                    + " kept, the others unchanged", (System.nanoTime() - start) / 1_000_000, r.referenceRecords(),
                    r.published(), r.terms().size(), r.kept());
        };
    }
}
