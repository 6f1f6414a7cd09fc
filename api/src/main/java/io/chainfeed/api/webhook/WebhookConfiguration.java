package io.chainfeed.api.webhook;

import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.platform.kafka.ClientMeters;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires webhook subscriptions and deliveries (settings: {@link WebhookProperties}). */
@Configuration
@EnableConfigurationProperties(WebhookProperties.class)
class WebhookConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WebhookConfiguration.class);

    @Bean(destroyMethod = "")
    Producer<String, byte[]> webhookProducer(KafkaConnectionProperties kafka, MeterRegistry meters) {
        KafkaProducer<String, byte[]> p = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                        ProducerConfig.CLIENT_ID_CONFIG, "chainfeed-api-webhooks", ProducerConfig.ACKS_CONFIG, "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000),
                new StringSerializer(), new ByteArraySerializer());
        ClientMeters.bind(p, meters);
        return p;
    }

    @Bean(destroyMethod = "close")
    Admin webhookAdmin(KafkaConnectionProperties kafka) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                AdminClientConfig.CLIENT_ID_CONFIG, "chainfeed-api-webhooks-admin",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                15_000));
    }

    @Bean
    SubscriptionStore webhookSubscriptionStore(KafkaConnectionProperties kafka,
            Producer<String, byte[]> webhookProducer, MeterRegistry meters) {
        return new SubscriptionStore(kafka.bootstrapServers(), webhookProducer, meters);
    }

    @Bean
    DeliveryStateStore webhookDeliveryStateStore(KafkaConnectionProperties kafka,
            Producer<String, byte[]> webhookProducer, MeterRegistry meters) {
        return new DeliveryStateStore(kafka.bootstrapServers(), webhookProducer, meters);
    }

    @Bean
    TargetGuard webhookTargetGuard(WebhookProperties props) {
        if (props.allowLoopback()) {
            log.warn("webhook targets on loopback are allowed (chainfeed.webhooks.allow-loopback): local testing only");
        }
        return new TargetGuard(props.allowLoopback(), InetAddress::getAllByName);
    }

    @Bean
    SubscriptionService webhookSubscriptionService(SubscriptionStore subscriptions, DeliveryStateStore states,
            TargetGuard guard, Admin webhookAdmin, WebhookProperties props, TopicParser topics) {
        Optional<SecretCipher> cipher = SecretCipher.fromConfig(props);
        if (cipher.isEmpty()) {
            log.warn("no webhook master key (chainfeed.webhooks.master-key or master-key-file): subscriptions cannot"
                    + " be created and none is delivered");
        }
        return new SubscriptionService(subscriptions, states, cipher, guard, webhookAdmin, props, Clock.systemUTC(),
                topics);
    }

    @Bean(destroyMethod = "close")
    WebhookSender webhookSender(TargetGuard guard, WebhookProperties props) {
        return new WebhookSender(guard, props.connectTimeout(), props.requestTimeout(),
                Math.max(4, props.workers() * 2), props.maxRedirects());
    }

    /**
     * The delivery meters on the api's registry, every outcome registered at zero.
     */
    @Bean
    WebhookMeters webhookMeters(MeterRegistry meters) {
        WebhookMeters webhookMeters = new WebhookMeters(meters);
        webhookMeters.registerAtStart();
        return webhookMeters;
    }

    /**
     * The deliveries; the engine and the delivery lease run only when this instance may
     * deliver, a master key is set and a read source (the feed's read log) is there.
     */
    @Bean
    WebhookDeliveries webhookDeliveries(SubscriptionStore subscriptions, DeliveryStateStore states,
            SubscriptionService service, WebhookSender sender, WebhookProperties props,
            ObjectProvider<ReadSource> source, Producer<String, byte[]> webhookProducer, MeterRegistry meters,
            WebhookMeters webhookMeters, KafkaConnectionProperties kafka) {
        WebhookEngine engine = null;
        DeliveryLease lease = null;
        ReadSource readSource = source.getIfAvailable();
        if (props.deliver() && SecretCipher.fromConfig(props).isPresent() && readSource != null) {
            lease = new DeliveryLease(kafka.bootstrapServers(), props.leaseGroup(), props.instanceId(),
                    props.leaseSessionTimeout(), Clock.systemUTC());
            engine = new WebhookEngine(readSource, sender,
                    new DeliveryPolicy(props.retrySchedule(), new SplittableRandom()),
                    new KafkaDeliveryJournal(states, service, webhookProducer), Clock.systemUTC(), props.workers(),
                    props.queueCapacity(), webhookMeters);
            WebhookEngine e = engine;
            // Consumer lag of the webhook workers: records of the reads log each
            // subscription has not settled.
            Gauge.builder("chainfeed.webhook.lag", e, WebhookEngine::lag)
                .description("records of the reads log the webhook subscriptions have yet to settle, summed")
                .baseUnit("records")
                .register(meters);
            Gauge.builder("chainfeed.webhook.lag.max", e, WebhookEngine::maxLag)
                .description("the largest such lag of one webhook subscription")
                .baseUnit("records")
                .register(meters);
            Gauge
                .builder("chainfeed.webhook.failing.subscriptions", e, engine1 -> engine1.failing(props.failingAfter()))
                .description("subscriptions delivered here whose endpoint has answered no 2xx for longer"
                        + " than chainfeed.webhooks.failing-after")
                .register(meters);
        }
        WebhookDeliveries.Delivering delivering = engine == null ? null
                : new WebhookDeliveries.Delivering(engine, lease, props.requestTimeout().plus(props.connectTimeout()));
        return new WebhookDeliveries(subscriptions, states, service, delivering) {
            @Override
            public void stop() {
                super.stop();
                webhookProducer.close(Duration.ofSeconds(10));
            }
        };
    }

}
